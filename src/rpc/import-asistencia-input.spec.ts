import {
  mergeRefused,
  splitStorable,
  storableOrigen,
  unstorableMotivo,
} from './import-asistencia-input';

const NUL_MOTIVO = 'el registro contiene caracteres que no se pueden guardar (NUL)';
const SURROGATE_MOTIVO =
  'el registro contiene caracteres que no se pueden guardar (sustitutos UTF-16 sin pareja)';
const good = (hora: string) => ({ doc: '40000001', fecha: '2026-03-02', hora });

describe('records import_asistencia cannot store', () => {
  it.each([
    [{ doc: '4000\u00000001', fecha: '2026-03-02', hora: '08:00' }, NUL_MOTIVO],
    [{ doc: '1', datos: { device: ['a', 'b\u0000'] } }, NUL_MOTIVO],
    [{ doc: '1', ['ke\u0000y']: 'x' }, NUL_MOTIVO],
    [{ doc: '1', nested: { ['\uD800']: 1 } }, SURROGATE_MOTIVO],
    [{ doc: '\uDC00abc' }, SURROGATE_MOTIVO],
    ['\u0000', NUL_MOTIVO],
  ])('refuses %j', (registro, motivo) => {
    expect(unstorableMotivo(registro)).toBe(motivo);
  });

  it.each([
    [good('08:00')],
    [{ doc: 'Ñandú 😀', tab: 'a\tb', n: 1, b: true, z: null }],
    [[1, 'two', { three: [3] }]],
    ['texto'],
    [42],
    [null],
  ])('accepts %j (other controls, pairs of surrogates, any JSON value)', (registro) => {
    expect(unstorableMotivo(registro)).toBeUndefined();
  });

  it('walks a deeply nested value without exhausting the stack', () => {
    let deep: unknown = 'fin\u0000';
    for (let i = 0; i < 100_000; i += 1) deep = [deep];
    expect(unstorableMotivo(deep)).toBe(NUL_MOTIVO);
  });

  it('splits the records, keeping the positions the client sent them at', () => {
    const registros = [good('08:00'), { doc: '\u0000' }, good('09:00'), 'x\uD800', good('10:00')];
    expect(splitStorable(registros)).toEqual({
      kept: [good('08:00'), good('09:00'), good('10:00')],
      keptIndexes: [0, 2, 4],
      refused: [
        { indice: 1, motivo: NUL_MOTIVO },
        { indice: 3, motivo: SURROGATE_MOTIVO },
      ],
    });
  });

  it('removes NUL from origen, which is text', () => {
    expect(storableOrigen('attlog\u0000.dat')).toBe('attlog.dat');
    expect(storableOrigen('attlog.dat')).toBe('attlog.dat');
    expect(storableOrigen(7)).toBeNull();
    expect(storableOrigen(undefined)).toBeNull();
  });
});

describe('the store function’s answer with the refused records merged in', () => {
  const split = {
    keptIndexes: [0, 2, 4],
    refused: [{ indice: 1, motivo: NUL_MOTIVO }],
  };

  it('maps its own invalidos back to the client’s positions, counting every record sent', () => {
    const result = {
      recibidos: 3,
      insertados: 1,
      duplicados: 0,
      desconocidos: ['99'],
      invalidos: [{ indice: 2, motivo: 'falta hora' }],
      dias_recalculados: 1,
    };
    expect(mergeRefused(result, 5, split)).toEqual({
      recibidos: 5,
      insertados: 1,
      duplicados: 0,
      desconocidos: ['99'],
      invalidos: [
        { indice: 1, motivo: NUL_MOTIVO },
        { indice: 4, motivo: 'falta hora' },
      ],
      dias_recalculados: 1,
    });
  });

  it('leaves the answer alone when nothing was refused', () => {
    const result = { recibidos: 2, invalidos: [{ indice: 1, motivo: 'falta doc' }] };
    expect(mergeRefused(result, 2, { keptIndexes: [0, 1], refused: [] })).toBe(result);
  });

  it('reports every record when all were refused', () => {
    expect(
      mergeRefused({ recibidos: 0, insertados: 0, invalidos: [] }, 1, {
        keptIndexes: [],
        refused: [{ indice: 0, motivo: NUL_MOTIVO }],
      }),
    ).toEqual({ recibidos: 1, insertados: 0, invalidos: [{ indice: 0, motivo: NUL_MOTIVO }] });
  });
});
