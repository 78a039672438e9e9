import {
  closeBody,
  conteoBody,
  conteoTotal,
  denominacionLabel,
  diferencia,
  metodosShown,
  type CloseDraft,
  type ReporteMetodo,
} from './caja-rules';

const metodo = (over: Partial<ReporteMetodo>): ReporteMetodo => ({
  id_metodo_pago: 1,
  nombre: 'Efectivo',
  tipo: 'efectivo',
  cuenta_en_caja: true,
  pagos: 0,
  ventas: 0,
  propinas: 0,
  reembolsos: 0,
  apertura: 0,
  ingresos: 0,
  retiros: 0,
  esperado: 0,
  contado: null,
  diferencia: null,
  ...over,
});

const EFECTIVO = metodo({ esperado: 227.7 });
const TARJETA = metodo({
  id_metodo_pago: 2,
  nombre: 'Tarjeta',
  tipo: 'tarjeta',
  cuenta_en_caja: false,
  pagos: 1,
  ventas: 43.25,
  esperado: 43.25,
});
const YAPE = metodo({
  id_metodo_pago: 3,
  nombre: 'Yape',
  tipo: 'billetera',
  cuenta_en_caja: false,
});

const draft = (over: Partial<CloseDraft>): CloseDraft => ({
  contado: {},
  porDenominacion: false,
  conteo: {},
  nota: '',
  ...over,
});

describe('caja rules', () => {
  it('names the notes and coins', () => {
    expect(denominacionLabel(20000)).toBe('S/ 200');
    expect(denominacionLabel(100)).toBe('S/ 1');
    expect(denominacionLabel(50)).toBe('S/ 0.50');
    expect(denominacionLabel(10)).toBe('S/ 0.10');
  });

  it('shows the cash always, another method only when it moved money', () => {
    expect(metodosShown({ metodos: [EFECTIVO, TARJETA, YAPE] })).toEqual([EFECTIVO, TARJETA]);
  });

  it('adds up a count by denomination in céntimos', () => {
    // 2 × 100 + 20 + 5 + 2 + 0.50 + 3 × 0.10 = 227.80
    const conteo = { 10000: '2', 2000: '1', 500: '1', 200: '1', 50: '1', 10: '3' };
    expect(conteoTotal(conteo)).toBe(22780);
    expect(conteoTotal({ 10: '7', 20: '' })).toBe(70);
    expect(conteoTotal({ 100: '1.5' })).toBeNull();
    expect(conteoBody(conteo)).toEqual([
      { denominacion: 100, cantidad: 2 },
      { denominacion: 20, cantidad: 1 },
      { denominacion: 5, cantidad: 1 },
      { denominacion: 2, cantidad: 1 },
      { denominacion: 0.5, cantidad: 1 },
      { denominacion: 0.1, cantidad: 3 },
    ]);
  });

  it('says the difference against what was expected', () => {
    expect(diferencia(227.7, '227.50')).toBe(-20);
    expect(diferencia(0.3, '0.1')).toBe(-20);
    expect(diferencia(43.25, '43.25')).toBe(0);
    expect(diferencia(43.25, 'x')).toBeNull();
  });

  it('requires the cash, and takes another method left empty as expected', () => {
    expect(closeBody([EFECTIVO, TARJETA], draft({}))).toEqual({
      body: null,
      errors: { 1: 'Cuente el efectivo' },
    });
    expect(
      closeBody(
        [EFECTIVO, TARJETA],
        draft({ contado: { 1: '227,50' }, nota: ' faltan 20 céntimos ' }),
      ),
    ).toEqual({
      body: { contado: [{ id_metodo_pago: 1, monto: 227.5 }], nota: 'faltan 20 céntimos' },
      errors: {},
    });
    expect(
      closeBody([EFECTIVO, TARJETA], draft({ contado: { 1: '10', 2: 'abc' } })).errors,
    ).toEqual({ 2: 'Importe no válido' });
  });

  it('counts the cash by denomination and sends both', () => {
    const counted = draft({
      contado: { 1: '999', 2: '43.25' },
      porDenominacion: true,
      conteo: { 10000: '2', 2000: '1', 500: '1', 200: '1', 50: '1' },
    });
    expect(closeBody([EFECTIVO, TARJETA], counted).body).toEqual({
      contado: [
        { id_metodo_pago: 1, monto: 227.5 },
        { id_metodo_pago: 2, monto: 43.25 },
      ],
      conteo: [
        { denominacion: 100, cantidad: 2 },
        { denominacion: 20, cantidad: 1 },
        { denominacion: 5, cantidad: 1 },
        { denominacion: 2, cantidad: 1 },
        { denominacion: 0.5, cantidad: 1 },
      ],
    });
    expect(
      closeBody([EFECTIVO], draft({ porDenominacion: true, conteo: { 100: 'dos' } })).errors,
    ).toEqual({ 1: 'Revise las cantidades' });
  });
});
