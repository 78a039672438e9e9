import type { ReporteCajaDto, ReporteMetodoDto } from './dto/caja-output.dto';
import { RECEIPT_WIDTH, receiptText } from './receipt';

const metodo = (
  m: Partial<ReporteMetodoDto> & Pick<ReporteMetodoDto, 'id_metodo_pago' | 'nombre'>,
): ReporteMetodoDto => ({
  tipo: 'tarjeta',
  cuenta_en_caja: false,
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
  ...m,
});

/** The Z of a busy day, as docs/cobros.md shows it. */
const Z: ReporteCajaDto = {
  tipo: 'Z',
  sesion: {
    id_sesion: 88,
    id_caja: 1,
    caja: 'Caja 1',
    estado: 'cerrada',
    numero_z: 14,
    monto_apertura: 200,
    fec_apertura: '2026-11-22T11:58:03-05:00',
    fec_cierre: '2026-11-22T23:10:41-05:00',
    id_usuario_apertura: 3,
    abierta_por: 'Carmen Rojas',
    id_usuario_cierre: 3,
    cerrada_por: 'Carmen Rojas',
    nota: null,
    acciones: [],
  },
  fec_reporte: '2026-11-22T23:10:41-05:00',
  metodos: [
    metodo({
      id_metodo_pago: 1,
      nombre: 'Efectivo',
      tipo: 'efectivo',
      cuenta_en_caja: true,
      pagos: 31,
      ventas: 1410.5,
      propinas: 35,
      apertura: 200,
      retiros: 40,
      esperado: 1605.5,
      contado: 1603.5,
      diferencia: -2,
    }),
    metodo({
      id_metodo_pago: 2,
      nombre: 'Tarjeta',
      pagos: 22,
      ventas: 1002,
      propinas: 26,
      esperado: 1028,
      contado: 1028,
      diferencia: 0,
    }),
    metodo({ id_metodo_pago: 3, nombre: 'Yape', tipo: 'billetera', contado: 0, diferencia: 0 }),
  ],
  totales: {
    pagos: 53,
    comandas: 41,
    ventas: 2412.5,
    propinas: 61,
    reembolsos: 0,
    ingresos: 0,
    retiros: 40,
    esperado: 2633.5,
    contado: 2631.5,
    diferencia: -2,
  },
  movimientos: [
    {
      id_movimiento: 7,
      id_sesion: 88,
      tipo: 'retiro',
      monto: 40,
      motivo: 'compra de limones en el mercado de Surquillo',
      id_usuario: 3,
      usuario: 'Carmen Rojas',
      fec_movimiento: '2026-11-22T16:10:00-05:00',
    },
  ],
  conteo: null,
};

describe('the receipt of an X or a Z', () => {
  it('lays the Z out for a 42-column printer', () => {
    const text = receiptText({
      ...Z,
      sesion: { ...Z.sesion, nota: 'faltan 2 soles de sencillo, se repone mañana temprano' },
    });
    const lines = text.trimEnd().split('\n');
    expect(Math.max(...lines.map((l) => l.length))).toBeLessThanOrEqual(RECEIPT_WIDTH);
    expect(text).toMatchInlineSnapshot(`
     "==========================================
                 Caja 1 - REPORTE Z
                      Z N° 14
     ------------------------------------------
     Apertura 22/11/2026 11:58     Carmen Rojas
     Cierre   22/11/2026 23:10     Carmen Rojas
     Emitido  22/11/2026 23:10
     ------------------------------------------
     VENTAS POR MÉTODO
     Efectivo (31)                     1,410.50
       Propinas                           35.00
     Tarjeta (22)                      1,002.00
       Propinas                           26.00
     ------------------------------------------
     TOTAL VENTAS                      2,412.50
     TOTAL PROPINAS                       61.00
     Comandas cobradas                       41
     Pagos                                   53
     ------------------------------------------
     EFECTIVO EN CAJA
     Apertura                            200.00
     + Ventas                          1,410.50
     + Propinas                           35.00
     + Ingresos                            0.00
     - Retiros                            40.00
     - Reembolsos                          0.00
     = Esperado                        1,605.50
     Contado                           1,603.50
     Diferencia                           -2.00
     ------------------------------------------
     ARQUEO OTROS MÉTODOS
     Tarjeta
       Esperado                        1,028.00
       Contado                         1,028.00
       Diferencia                          0.00
     ------------------------------------------
     MOVIMIENTOS
     16:10 compra de limones en el merca -40.00
     ------------------------------------------
     Nota: faltan 2 soles de sencillo, se
     repone mañana temprano
     ==========================================
     "
    `);
  });

  it('says an X is partial', () => {
    const x = receiptText({
      ...Z,
      tipo: 'X',
      sesion: { ...Z.sesion, estado: 'abierta', numero_z: null, fec_cierre: null },
    });
    expect(x.split('\n').slice(0, 3)).toEqual([
      '='.repeat(42),
      '            Caja 1 - REPORTE X',
      '    (parcial: la sesión sigue abierta)',
    ]);
    expect(x).not.toContain('Cierre');
  });
});
