import { problemInSpanish, validationFailedInSpanish } from './validation-spanish';

describe('the Spanish of validation problems', () => {
  it.each([
    // class-validator's rules, as the DTOs use them
    ['id_mesa must be an integer number', 'id_mesa debe ser un número entero'],
    ['propina should not exist', 'propina no se admite'],
    ['property propina should not exist', 'el campo propina no se admite'],
    ['items.0.property x should not exist', 'items.0.el campo x no se admite'],
    ['personas must not be greater than 50', 'personas no debe ser mayor que 50'],
    ['cantidad must not be less than 1', 'cantidad no debe ser menor que 1'],
    ['nota must be a string', 'nota debe ser un texto'],
    [
      'nota must be shorter than or equal to 200 characters',
      'nota debe tener 200 caracteres como máximo',
    ],
    [
      'password must be longer than or equal to 10 characters',
      'password debe tener al menos 10 caracteres',
    ],
    ['items must contain at least 1 elements', 'items debe tener al menos 1 elementos'],
    ['items must contain no more than 100 elements', 'items debe tener 100 elementos como máximo'],
    ['items must be an array', 'items debe ser una lista'],
    [
      'nested property items must be either object or array',
      'items debe ser un objeto o una lista',
    ],
    ["All ids's elements must be unique", 'los elementos de ids deben ser distintos'],
    [
      'estado must be one of the following values: abierta, cerrada',
      'estado debe ser uno de estos valores: abierta, cerrada',
    ],
    ['activo must be a boolean value', 'activo debe ser true o false'],
    ['monto must be a number conforming to the specified constraints', 'monto debe ser un número'],
    ['nombre should not be empty', 'nombre no debe estar vacío'],
    ['lineas should not be null or undefined', 'lineas es obligatorio'],
    ['each value in eventos must be a string', 'cada valor de eventos debe ser un texto'],
    // the service's own rules and messages
    ['motivo is required', 'motivo es obligatorio'],
    [
      'contado is required (null takes the line off)',
      'contado es obligatorio (null quita la línea)',
    ],
    [
      'limit must be given once (it was given 2 times)',
      'limit debe enviarse una sola vez (se envió 2 veces)',
    ],
    ['desde must be a date YYYY-MM-DD', 'desde debe ser una fecha YYYY-MM-DD'],
    [
      'monto must be a number with at most 2 decimals',
      'monto debe ser un número con 2 decimales como máximo',
    ],
    ['eliminada must be true or false', 'eliminada debe ser true o false'],
    ['nombre must not be blank', 'nombre no debe estar en blanco'],
    [
      'hora must be a time HH:MM (00:00 to 23:59)',
      'hora debe ser una hora HH:MM (de 00:00 a 23:59)',
    ],
    ['pin must be 4 to 6 digits', 'pin debe tener de 4 a 6 dígitos'],
    ['password must be at least 10 characters long', 'password debe tener al menos 10 caracteres'],
    [
      'password must not be one character repeated',
      'password no debe ser un mismo carácter repetido',
    ],
    [
      'doc must be a document number (a non-empty string)',
      'doc debe ser un número de documento (un texto no vacío)',
    ],
    [
      'desde must not be after hasta (desde 2026-11-20, hasta 2026-11-10)',
      'desde no debe ser posterior a hasta (desde 2026-11-20, hasta 2026-11-10)',
    ],
    [
      'hasta must be at most 365 days after desde (the range spans 400 days, at most 366)',
      'hasta debe ser como máximo 365 días posterior a desde (el rango abarca 400 días, como máximo 366)',
    ],
    // the hostile-input middleware's
    [
      'items.0.nota must not contain control characters (U+001B)',
      'items.0.nota no debe contener caracteres de control (U+001B)',
    ],
    [
      'property names must not contain control characters (U+0000): "a\\u0000"',
      'los nombres de los campos no deben contener caracteres de control (U+0000): "a\\u0000"',
    ],
    ['property __proto__ should not exist', 'el campo __proto__ no se admite'],
    [
      'the body must not nest arrays or objects deeper than 32 levels',
      'el cuerpo no debe anidar listas ni objetos en más de 32 niveles',
    ],
    [
      'the path must not contain control characters (U+0007)',
      'la ruta no debe contener caracteres de control (U+0007)',
    ],
    // a message of no known form still names its field
    ['x must be a prime number', 'x no es válido'],
  ])('%j → %j', (english, spanish) => {
    expect(problemInSpanish(english)).toBe(spanish);
  });

  it('says every field of the detail', () => {
    expect(
      validationFailedInSpanish(['id_mesa must be an integer number', 'propina should not exist']),
    ).toBe(
      'Los datos enviados no son válidos: id_mesa debe ser un número entero; propina no se admite',
    );
    expect(validationFailedInSpanish([])).toBe('Los datos enviados no son válidos');
  });
});
