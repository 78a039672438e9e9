import { ApiError } from '../api';
import { soles } from '../format';
import {
  checkDescuento,
  defaultMonto,
  despuesText,
  draftErrors,
  emptyDraft,
  pagoBody,
  pagoDetalle,
  pagosResumen,
  redondeoText,
  refusalFields,
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
  // a bill of S/ 93.25: in cash S/ 93.20 settles it (the service's saldo_efectivo)
  const bill = { saldo: 93.25, saldo_efectivo: 93.2 };

  it('proposes the balance, in cash the cash balance, as the bill has them', () => {
    expect(defaultMonto(bill, false)).toBe('93.25');
    expect(defaultMonto(bill, true)).toBe('93.20');
    expect(emptyDraft(bill, true)).toEqual(draft({ monto: '93.20' }));
    expect(defaultMonto({ saldo: 0, saldo_efectivo: 0 }, true)).toBe('');
    // a bill read without cobros' fields proposes nothing
    expect(defaultMonto({}, false)).toBe('');
  });

  it('refuses to send only what is not an amount', () => {
    expect(draftErrors(draft({ monto: '' }), false)).toEqual({ monto: 'Indique el monto' });
    expect(draftErrors(draft({ monto: '0' }), false)).toEqual({
      monto: 'El monto debe ser mayor que cero',
    });
    expect(draftErrors(draft({ monto: '12.345', propina: 'x', recibido: 'y' }), true)).toEqual({
      monto: 'Importe no válido',
      propina: 'Importe no válido',
      recibido: 'Importe no válido',
    });
    // what was handed over is not read off cash; too much, or a short note, is the service's
    expect(draftErrors(draft({ monto: '500', recibido: 'y' }), false)).toEqual({});
    expect(draftErrors(draft({ monto: '50', propina: '5', recibido: '52' }), true)).toEqual({});
    expect(pagoBody(TARJETA, draft({ monto: 'x' }))).toBeNull();
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

  it('says what remains after the payment, and the rounding, as the service worked them out', () => {
    expect(despuesText({ salda: false, saldo: 35.25 })).toBe(
      'Después de este pago quedan S/ 35.25.',
    );
    expect(despuesText({ salda: true, saldo: 0 })).toBe('Con este pago la cuenta queda pagada.');
    expect(redondeoText({ monto: 85.2, redondeo: -0.05 })).toBe(
      'En efectivo se cobra S/ 85.20: redondeo de S/ 0.05 a favor del cliente.',
    );
    expect(redondeoText({ monto: 50, redondeo: 0 })).toBeNull();
  });

  it('puts the service’s refusals at their fields', () => {
    const refusal = (code: string, detail: unknown) =>
      new ApiError(code === 'VALIDATION_FAILED' ? 400 : 409, code, 'refused', detail);
    expect(refusalFields(refusal('PAGO_EXCEDE_SALDO', { saldo: 93.25 }))).toEqual({
      monto: 'Más que el saldo (S/ 93.25): solo el efectivo da vuelto',
    });
    expect(refusalFields(refusal('PAGO_EXCEDE_SALDO', { saldo: 0 }))).toEqual({
      monto: 'No queda saldo por cobrar',
    });
    // how much a short note lacks, from the refusal's figures, in céntimos: 50 + 5.30 − 52.10
    expect(
      refusalFields(refusal('RECIBIDO_INSUFICIENTE', { recibido: 52.1, monto: 50, propina: 5.3 })),
    ).toEqual({ recibido: 'Faltan S/ 3.20' });
    expect(
      refusalFields(refusal('VALIDATION_FAILED', ['monto must not be greater than 1000000'])),
    ).toEqual({ monto: 'monto must not be greater than 1000000' });
    // about no field: shown under the form as the service says it
    expect(refusalFields(refusal('SIN_SESION_ABIERTA', { id_caja: null }))).toEqual({});
    expect(refusalFields(new Error('offline'))).toEqual({});
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
