import { soles } from '../format';
import {
  balanceOf,
  checkDescuento,
  checkTender,
  defaultMonto,
  emptyDraft,
  pagoBody,
  pagoDetalle,
  pagosResumen,
  type Metodo,
  type Pago,
  type TenderDraft,
} from './cobrar-rules';

const EFECTIVO: Metodo = {
  id_metodo_pago: 1,
  nombre: 'Efectivo',
  tipo: 'efectivo',
  cuenta_en_caja: true,
};
const TARJETA: Metodo = {
  id_metodo_pago: 2,
  nombre: 'Tarjeta',
  tipo: 'tarjeta',
  cuenta_en_caja: false,
};

const draft = (over: Partial<TenderDraft>): TenderDraft => ({
  monto: '',
  propina: '',
  recibido: '',
  referencia: '',
  ...over,
});

describe('cobrar rules', () => {
  // a bill of S/ 93.25: in cash S/ 93.20 settles it (rounded down to S/ 0.10)
  const bill = balanceOf({ saldo: 93.25, saldo_efectivo: 93.2 });

  it('proposes the balance, in cash the cash balance', () => {
    expect(bill).toEqual({ saldo: 9325, saldoEfectivo: 9320 });
    expect(defaultMonto(bill, false)).toBe('93.25');
    expect(defaultMonto(bill, true)).toBe('93.20');
    expect(emptyDraft(bill, true)).toEqual(draft({ monto: '93.20' }));
    expect(defaultMonto(balanceOf({ saldo: 0, saldo_efectivo: 0 }), true)).toBe('');
  });

  it('shows the change of cash handed over, in céntimos', () => {
    // part of the bill, with a tip: 100 handed over for 50 and 5 of tip
    const part = checkTender(bill, true, draft({ monto: '50', propina: '5', recibido: '100' }));
    expect(part).toEqual({
      errors: {},
      aplicado: 5000,
      propina: 500,
      recibido: 10000,
      vuelto: 4500,
      settles: false,
    });
    // the whole bill in cash: the cash balance settles it, the rest of 100 is change
    const all = checkTender(bill, true, draft({ monto: '93.20', recibido: '100' }));
    expect(all).toMatchObject({ aplicado: 9320, vuelto: 680, settles: true });
    // more than the balance typed as the amount: the bill takes the cash balance, the rest is change
    const over = checkTender(bill, true, draft({ monto: '100' }));
    expect(over).toMatchObject({ aplicado: 9320, recibido: 10000, vuelto: 680, settles: true });
    // decimals that floating point gets wrong: 100 − 64.30 (64.35 in cash) − 5.30
    const fine = checkTender(
      balanceOf({ saldo: 64.35, saldo_efectivo: 64.3 }),
      true,
      draft({ monto: '64,35', propina: '5.30', recibido: '100' }),
    );
    expect(fine).toMatchObject({ aplicado: 6430, vuelto: 3040, settles: true });
  });

  it('says how much is missing when the cash handed over is short', () => {
    const short = checkTender(bill, true, draft({ monto: '50', propina: '5', recibido: '52' }));
    expect(short.errors).toEqual({ recibido: 'Faltan S/ 3.00' });
    expect(short.settles).toBe(false);
  });

  it('keeps a card payment within the balance, and settles with exactly the balance', () => {
    expect(checkTender(bill, false, draft({ monto: '93.25' }))).toMatchObject({
      errors: {},
      aplicado: 9325,
      vuelto: 0,
      recibido: null,
      settles: true,
    });
    expect(checkTender(bill, false, draft({ monto: '93.20' })).settles).toBe(false);
    expect(checkTender(bill, false, draft({ monto: '93.30' })).errors).toEqual({
      monto: 'Más que el saldo (S/ 93.25): solo el efectivo da vuelto',
    });
  });

  it('refuses an amount that is not one', () => {
    expect(checkTender(bill, false, draft({ monto: '' })).errors).toEqual({
      monto: 'Indique el monto',
    });
    expect(checkTender(bill, false, draft({ monto: '0' })).errors).toEqual({
      monto: 'El monto debe ser mayor que cero',
    });
    expect(checkTender(bill, true, draft({ monto: '12.345', propina: 'x' })).errors).toEqual({
      monto: 'Importe no válido',
      propina: 'Importe no válido',
    });
    expect(
      checkTender(balanceOf({ saldo: 0, saldo_efectivo: 0 }), true, draft({ monto: '5' })).errors,
    ).toEqual({ monto: 'No queda saldo por cobrar' });
  });

  it('sends what was typed, as the API takes it', () => {
    expect(pagoBody(EFECTIVO, draft({ monto: '50', propina: '5', recibido: '100' }))).toEqual({
      id_metodo_pago: 1,
      monto: 50,
      propina: 5,
      recibido: 100,
    });
    expect(
      pagoBody(TARJETA, draft({ monto: '43,25', recibido: '99', referencia: ' VISA 4821 ' }), 2),
    ).toEqual({ id_metodo_pago: 2, monto: 43.25, referencia: 'VISA 4821', id_caja: 2 });
    expect(JSON.stringify(pagoBody(EFECTIVO, draft({ monto: '4.35', propina: '1.15' })))).toBe(
      '{"id_metodo_pago":1,"monto":4.35,"propina":1.15}',
    );
  });

  it('says a payment in a line', () => {
    const pago = {
      recibido: 100,
      vuelto: 45,
      referencia: null,
      estado: 'aplicado',
      motivo_anulacion: null,
    } as Pago;
    expect(pagoDetalle(pago, soles)).toBe('recibido S/ 100.00 · vuelto S/ 45.00');
    expect(
      pagoDetalle(
        {
          ...pago,
          recibido: null,
          vuelto: 0,
          referencia: 'VISA 4821',
          estado: 'anulado',
          motivo_anulacion: 'otro método',
        },
        soles,
      ),
    ).toBe('VISA 4821 · anulado: otro método');
  });

  it('says how a bill was paid, without the voided payments', () => {
    const pago = (metodo: string, monto: number, estado: 'aplicado' | 'anulado') =>
      ({ metodo, monto, estado }) as Pago;
    expect(
      pagosResumen(
        [
          pago('Efectivo', 50, 'aplicado'),
          pago('Yape', 10, 'anulado'),
          pago('Tarjeta', 35.25, 'aplicado'),
        ],
        soles,
      ),
    ).toBe('Efectivo S/ 50.00 · Tarjeta S/ 35.25');
    expect(pagosResumen([], soles)).toBe('');
  });

  it('checks a discount', () => {
    expect(checkDescuento('porcentaje', '10', 'cliente frecuente')).toEqual({
      errors: {},
      valor: 10,
    });
    expect(checkDescuento('porcentaje', '120', '').errors).toEqual({
      valor: 'Como mucho 100 %',
      motivo: 'Indique el motivo',
    });
    expect(checkDescuento('monto', '7,50', 'cortesía')).toEqual({ errors: {}, valor: 7.5 });
  });
});
