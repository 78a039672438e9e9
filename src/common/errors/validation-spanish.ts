/**
 * The Spanish of a validation problem: one message of a `VALIDATION_FAILED` detail, as the
 * validation writes it in English (`id_mesa must be an integer number`), said in Spanish with
 * the same field path and values (`id_mesa debe ser un número entero`). The detail itself is
 * the same in every language; the Spanish goes into the envelope's `error`.
 *
 * The messages come from a few sources, each with its fixed wording: class-validator's rules
 * (the ones the DTOs use, with `each value in` for a rule applied to each element), the
 * service's own rules (src/common/validation.ts: required, given once, dates, decimals), the
 * messages some DTOs and services write (`must not be blank`, the sign-in secrets, the reports'
 * ranges), and the hostile-input middleware's (control characters, prototype names, nesting).
 * A message of none of these forms says that its field is not valid.
 */

/** The predicates of a field, English → Spanish: `$1`... are the parts kept as they are. */
const PREDICATES: readonly [RegExp, string][] = [
  [/^should not be null or undefined$/, 'es obligatorio'],
  [/^is required$/, 'es obligatorio'],
  [/^is required \(null takes the line off\)$/, 'es obligatorio (null quita la línea)'],
  [
    /^must be given once \(it was given (\d+) times\)$/,
    'debe enviarse una sola vez (se envió $1 veces)',
  ],
  [/^should not be empty$/, 'no debe estar vacío'],
  [/^should not exist$/, 'no se admite'],
  [/^must not be blank$/, 'no debe estar en blanco'],
  [/^must be a string$/, 'debe ser un texto'],
  [/^must be an integer number$/, 'debe ser un número entero'],
  [/^must be a positive integer$/, 'debe ser un entero positivo'],
  [/^must be a number conforming to the specified constraints$/, 'debe ser un número'],
  [
    /^must be a number with at most (\d+) decimals$/,
    'debe ser un número con $1 decimales como máximo',
  ],
  [/^must be an array$/, 'debe ser una lista'],
  [/^must be an object$/, 'debe ser un objeto'],
  [/^must be a boolean value$/, 'debe ser true o false'],
  [/^must be true or false$/, 'debe ser true o false'],
  [/^must be a UUID$/, 'debe ser un UUID'],
  [/^must be a URL address$/, 'debe ser una dirección URL'],
  [/^must be one of the following values: (.*)$/s, 'debe ser uno de estos valores: $1'],
  [/^must not be less than (.+)$/, 'no debe ser menor que $1'],
  [/^must not be greater than (.+)$/, 'no debe ser mayor que $1'],
  [/^must be shorter than or equal to (\d+) characters$/, 'debe tener $1 caracteres como máximo'],
  [/^must be longer than or equal to (\d+) characters$/, 'debe tener al menos $1 caracteres'],
  [/^must contain no more than (\d+) elements$/, 'debe tener $1 elementos como máximo'],
  [/^must contain at least (\d+) elements$/, 'debe tener al menos $1 elementos'],
  [/^must match (.+) regular expression$/s, 'debe cumplir la expresión regular $1'],
  [/^must be a date YYYY-MM-DD$/, 'debe ser una fecha YYYY-MM-DD'],
  [
    /^must be an instant (\S+)$/,
    'debe ser un instante $1 (fecha y hora, con o sin segundos y zona horaria)',
  ],
  [
    /^must be a date YYYY-MM-DD or an instant (\S+)$/,
    'debe ser una fecha YYYY-MM-DD o un instante $1',
  ],
  [/^must be a time HH:MM \(00:00 to 23:59\)$/, 'debe ser una hora HH:MM (de 00:00 a 23:59)'],
  [/^must be 4 to 6 digits$/, 'debe tener de 4 a 6 dígitos'],
  [/^must be at least (\d+) characters long$/, 'debe tener al menos $1 caracteres'],
  [/^must be at most (\d+) characters long$/, 'debe tener $1 caracteres como máximo'],
  [/^must not be one character repeated$/, 'no debe ser un mismo carácter repetido'],
  [
    /^is too easy to guess \(a repeated digit, a run such as 1234 or 9876, a repeated pattern or a common PIN\)$/,
    'es demasiado fácil de adivinar (un dígito repetido, una serie como 1234 o 9876, un patrón repetido o un PIN común)',
  ],
  [
    /^must be a document number \(a non-empty string\)$/,
    'debe ser un número de documento (un texto no vacío)',
  ],
  [
    /^must not contain control characters \((U\+[0-9A-F]{4})\)$/,
    'no debe contener caracteres de control ($1)',
  ],
  [
    /^must not be after hasta \(desde (\S+), hasta (\S+)\)$/,
    'no debe ser posterior a hasta (desde $1, hasta $2)',
  ],
  [
    /^must be at most (\d+) days after desde \(the range spans (\d+) days, at most (\d+)\)$/,
    'debe ser como máximo $1 días posterior a desde (el rango abarca $2 días, como máximo $3)',
  ],
];

/** Whole messages that do not start with a field path. */
const SENTENCES: readonly [RegExp, string][] = [
  [/^(.*)property (\S+) should not exist$/s, '$1el campo $2 no se admite'],
  [/^nested property (\S+) must be either object or array$/, '$1 debe ser un objeto o una lista'],
  [/^All (\S+)'s elements must be unique$/, 'los elementos de $1 deben ser distintos'],
  [
    /^property names must not contain control characters \((U\+[0-9A-F]{4})\): (.*)$/s,
    'los nombres de los campos no deben contener caracteres de control ($1): $2',
  ],
  [
    /^the body must not nest arrays or objects deeper than (\d+) levels$/,
    'el cuerpo no debe anidar listas ni objetos en más de $1 niveles',
  ],
  [
    /^the path must not contain control characters \((U\+[0-9A-F]{4})\)$/,
    'la ruta no debe contener caracteres de control ($1)',
  ],
];

function replaced(text: string, rules: readonly [RegExp, string][]): string | undefined {
  for (const [pattern, spanish] of rules) {
    const match = pattern.exec(text);
    if (match) return spanish.replace(/\$(\d)/g, (_, n: string) => match[Number(n)] ?? '');
  }
  return undefined;
}

/** One validation problem in Spanish (see the comment on top). */
export function problemInSpanish(problem: string): string {
  const sentence = replaced(problem, SENTENCES);
  if (sentence !== undefined) return sentence;
  const each = /^each value in (.*)$/s.exec(problem);
  if (each) {
    const inner = problemInSpanish(each[1]);
    const field = /^(\S+) (.*)$/s.exec(inner);
    return field ? `cada valor de ${field[1]} ${field[2]}` : `cada valor: ${inner}`;
  }
  const field = /^(\S+) (.*)$/s.exec(problem);
  const predicate = field ? replaced(field[2], PREDICATES) : undefined;
  if (field && predicate !== undefined) return `${field[1]} ${predicate}`;
  return field ? `${field[1]} no es válido` : 'un valor no es válido';
}

/** The `error` of a VALIDATION_FAILED in Spanish: what is wrong with each field. */
export function validationFailedInSpanish(problems: readonly string[]): string {
  return problems.length === 0
    ? 'Los datos enviados no son válidos'
    : `Los datos enviados no son válidos: ${problems.map(problemInSpanish).join('; ')}`;
}
