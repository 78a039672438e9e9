import { ApiError } from '../api';
import {
  cantidadLabel,
  cantidadSigned,
  conteoLineas,
  conteoPatch,
  contadosOf,
  costoUnitario,
  documentoLabel,
  enAlerta,
  estadoConteoLabel,
  filtrarSaldos,
  instanteLocal,
  mensajeError,
  parseCantidad,
  periodoLabel,
  periodoQuery,
  porcentaje,
  tipoLabel,
  TIPOS,
  unidadLabel,
  valorTotal,
} from './inventario-rules';

const saldo = (nombre: string, over: { negativo?: boolean; bajo_minimo?: boolean } = {}) => ({
  nombre,
  negativo: false,
  bajo_minimo: false,
  ...over,
});

describe('inventario rules', () => {
  it('names every tipo of movement in Spanish', () => {
    expect(tipoLabel('compra')).toBe('Compra');
    expect(tipoLabel('consumo_venta')).toBe('Consumo de venta');
    expect(tipoLabel('merma')).toBe('Merma');
    expect(tipoLabel('ajuste_conteo')).toBe('Ajuste de conteo');
    expect(tipoLabel('reverso_compra')).toBe('Reverso de compra');
    expect(tipoLabel('reverso_consumo')).toBe('Reverso de consumo');
    expect(tipoLabel('inicial')).toBe('Saldo inicial');
    expect(new Set(TIPOS.map((t) => t.tipo)).size).toBe(7);
    expect(estadoConteoLabel('borrador')).toBe('Borrador');
    expect(estadoConteoLabel('aplicado')).toBe('Aplicado');
  });

  it('writes quantities, unit costs and percentages in es-PE', () => {
    expect(cantidadLabel(1234.5, 'kg')).toBe('1,234.5 kg');
    expect(cantidadLabel(12, 'unidad')).toBe('12 und.');
    expect(cantidadLabel(0.0125, 'kg')).toBe('0.0125 kg');
    expect(cantidadSigned(-0.35, 'kg')).toBe('-0.35 kg');
    expect(cantidadSigned(0.5, 'l')).toBe('+0.5 l');
    expect(cantidadSigned(0, 'g')).toBe('0 g');
    expect(unidadLabel('ml')).toBe('ml');
    expect(costoUnitario(32.083333)).toBe('S/ 32.08');
    expect(costoUnitario(30)).toBe('S/ 30.00');
    expect(costoUnitario(0.032083)).toBe('S/ 0.0321');
    expect(costoUnitario(0)).toBe('S/ 0.00');
    expect(porcentaje(30.95)).toBe('30.95 %');
    expect(porcentaje(20)).toBe('20.00 %');
    expect(porcentaje(null)).toBe('—');
  });

  it('filters balances by name (any case or accent) and by alert', () => {
    const list = [
      saldo('Limón', { bajo_minimo: true }),
      saldo('Pescado (corvina)'),
      saldo('Cebolla roja', { negativo: true }),
    ];
    expect(filtrarSaldos(list, 'limon', false).map((s) => s.nombre)).toEqual(['Limón']);
    expect(filtrarSaldos(list, '  PESCADO ', false).map((s) => s.nombre)).toEqual([
      'Pescado (corvina)',
    ]);
    expect(filtrarSaldos(list, '', true).map((s) => s.nombre)).toEqual(['Limón', 'Cebolla roja']);
    expect(filtrarSaldos(list, 'ceb', true).map((s) => s.nombre)).toEqual(['Cebolla roja']);
    expect(filtrarSaldos(list, '', false)).toHaveLength(3);
    expect(enAlerta({ negativo: false, bajo_minimo: false })).toBe(false);
  });

  it('adds the stock’s values exactly, in ten-thousandths, rounding once to céntimos', () => {
    // 0.1 + 0.2 in floating point is 0.30000000000000004
    expect(valorTotal([{ valor: 0.1 }, { valor: 0.2 }])).toBe(30);
    expect(valorTotal([{ valor: 445.5505 }])).toBe(44555);
    expect(valorTotal([{ valor: 300 }, { valor: -18 }, { valor: 180 }, { valor: -12.8333 }])).toBe(
      44917,
    );
    expect(valorTotal([{ valor: 0.0049 }, { valor: 0.0001 }])).toBe(1);
    expect(valorTotal([{ valor: -0.0051 }])).toBe(-1);
    expect(valorTotal([{ valor: -6.93 }, { valor: 0 }])).toBe(-693);
    expect(valorTotal([])).toBe(0);
    expect(valorTotal([{ valor: 1234567.8912 }, { valor: 0.0088 }])).toBe(123456790);
  });

  it('reads the quantities people type from their text', () => {
    expect(parseCantidad('4.25')).toBe(4.25);
    expect(parseCantidad('4,25')).toBe(4.25);
    expect(parseCantidad(' 12 ')).toBe(12);
    expect(parseCantidad('.5')).toBe(0.5);
    expect(parseCantidad('0')).toBe(0);
    expect(parseCantidad('0.0001')).toBe(0.0001);
    expect(parseCantidad('0.00001')).toBeNull();
    expect(parseCantidad('-1')).toBeNull();
    expect(parseCantidad('')).toBeNull();
    expect(parseCantidad('1,234.5')).toBeNull();
    expect(parseCantidad('dos')).toBeNull();
  });

  it('builds a new count sheet from the materials counted; a blank one was not counted', () => {
    expect(conteoLineas({ 1: '9.5', 2: '', 3: '0' })).toEqual({
      lineas: [
        { id_mat_prima: 1, contado: 9.5 },
        { id_mat_prima: 3, contado: 0 },
      ],
      errors: {},
    });
    expect(conteoLineas({ 1: 'x', 2: '3' }).errors).toEqual({
      1: 'Cantidad no válida (hasta 4 decimales)',
    });
    expect(conteoLineas({ 1: '', 2: ' ' }).errors).toEqual({
      0: 'Anote lo contado de al menos un material',
    });
  });

  it('sends a draft only what changed: new counts, emptied lines off, the note', () => {
    const draft = {
      observacion: 'cierre de semana',
      lineas: [
        { id_mat_prima: 1, contado: 9.5 },
        { id_mat_prima: 2, contado: 5 },
      ],
    };
    const typed = contadosOf(draft);
    expect(typed).toEqual({ 1: '9.5', 2: '5' });
    expect(conteoPatch(draft, typed, 'cierre de semana')).toEqual({ body: null, errors: {} });
    expect(conteoPatch(draft, { ...typed, 2: '', 3: '1' }, 'cierre de semana')).toEqual({
      body: {
        lineas: [
          { id_mat_prima: 2, contado: null },
          { id_mat_prima: 3, contado: 1 },
        ],
      },
      errors: {},
    });
    expect(conteoPatch(draft, { ...typed, 1: '9,4' }, '')).toEqual({
      body: { lineas: [{ id_mat_prima: 1, contado: 9.4 }], observacion: null },
      errors: {},
    });
    expect(conteoPatch(draft, { 1: '', 2: '' }, '').errors).toEqual({
      0: 'Un conteo necesita al menos un material',
    });
    expect(conteoPatch(draft, { ...typed, 1: 'nueve' }, '').body).toBeNull();
  });

  it('turns the periods of the report into the API’s query', () => {
    expect(periodoQuery('ultimo_conteo', '2026-11-25')).toEqual({});
    expect(periodoQuery('este_mes', '2026-11-25')).toEqual({
      desde: '2026-11-01',
      hasta: '2026-11-25',
    });
    expect(periodoQuery('mes_pasado', '2026-11-25')).toEqual({
      desde: '2026-10-01',
      hasta: '2026-10-31',
    });
    expect(periodoQuery('mes_pasado', '2026-03-10')).toEqual({
      desde: '2026-02-01',
      hasta: '2026-02-28',
    });
    expect(periodoQuery('mes_pasado', '2027-01-05')).toEqual({
      desde: '2026-12-01',
      hasta: '2026-12-31',
    });
    expect(periodoQuery('otro', '2026-11-25', { desde: '2026-11-10', hasta: '' })).toEqual({
      desde: '2026-11-10',
    });
  });

  it('says a period in whole days when it is, and names what a movement belongs to', () => {
    expect(periodoLabel('2026-11-01T00:00:00-05:00', '2026-11-26T00:00:00-05:00')).toBe(
      'Del 01/11/26 al 25/11/26',
    );
    expect(periodoLabel('2026-11-25T00:00:00-05:00', '2026-11-26T00:00:00-05:00')).toBe(
      'El 25/11/26',
    );
    expect(periodoLabel('2026-11-24T23:30:00-05:00', '2026-11-25T14:05:09-05:00')).toBe(
      'Del 24/11/26 23:30 al 25/11/26 14:05',
    );
    expect(periodoLabel('2026-11-01T00:00:00-05:00', '2026-11-25T14:05:00-05:00')).toBe(
      'Del 01/11/26 00:00 al 25/11/26 14:05',
    );
    expect(documentoLabel({ origen: 'compra', id_documento: 12 })).toBe('compra N° 12');
    expect(documentoLabel({ origen: 'conteo', id_documento: 3 })).toBe('conteo N° 3');
    expect(documentoLabel({ origen: 'consumo', id_documento: 40 })).toBeNull();
    expect(documentoLabel({ origen: 'merma', id_documento: null })).toBeNull();
  });

  it('says the service’s refusals in Spanish, with their code and the closed date locally', () => {
    expect(instanteLocal('2026-11-01T05:00:00.000Z', 'America/Lima')).toBe('01/11/26 00:00');
    const cerrado = new ApiError(409, 'PERIODO_CERRADO', 'The stock period is closed', {
      cerrado_hasta: '2026-11-01T05:00:00.000Z',
    });
    expect(mensajeError(cerrado, 'America/Lima')).toBe(
      'El inventario está cerrado hasta el 01/11/26 00:00 por el último conteo aplicado: no se puede registrar nada con fecha anterior (PERIODO_CERRADO)',
    );
    expect(
      mensajeError(new ApiError(409, 'CONTEO_NO_BORRADOR', 'Conteo 3 is aplicado'), 'UTC'),
    ).toMatch(/ya no es un borrador.*\(CONTEO_NO_BORRADOR\)$/);
    expect(mensajeError(new ApiError(400, 'CORTE_FUTURO', 'x'), 'UTC')).toBe(
      'La fecha de corte no puede estar en el futuro (CORTE_FUTURO)',
    );
    const other = new ApiError(400, 'VALIDATION_FAILED', 'cantidad must be positive');
    expect(mensajeError(other, 'UTC')).toBe(other);
  });
});
