import {
  allDay,
  alerta,
  duration,
  heldCourses,
  inSendOrder,
  minutesSince,
  pickStation,
  struck,
  type Envio,
  type Estacion,
} from './cocina-rules';

const envio = (over: Partial<Envio>): Envio => ({
  id_envio: 1,
  id_comanda: 1,
  numero_ticket: 1,
  mesa: 1,
  mozo: 'Rosa',
  id_estacion: 1,
  curso: 1,
  tipo: 'nuevo',
  estado: 'pendiente',
  lineas: [],
  fec_envio: '2026-11-22T13:00:00Z',
  fec_listo: null,
  fec_disparo: '2026-11-22T13:00:00Z',
  acciones: [],
  ...over,
});
const linea = (
  producto: string,
  cantidad: number,
  estado_cocina: Envio['lineas'][number]['estado_cocina'] = 'enviado',
) => ({
  id_item: 1,
  id_producto: 1,
  producto,
  cantidad,
  nota: null,
  estado_cocina,
});
const estacion = (over: Partial<Estacion>): Estacion => ({
  id_estacion: 1,
  nombre: 'Cocina',
  tipo: 'preparacion',
  alerta_amarilla_min: 8,
  alerta_roja_min: 15,
  activo: true,
  categorias: [],
  ...over,
});

describe('cocina rules', () => {
  it('colours a timer by the station thresholds', () => {
    const e = estacion({ alerta_amarilla_min: 5, alerta_roja_min: 10 });
    expect(alerta(4, e)).toBe('ok');
    expect(alerta(5, e)).toBe('amarilla');
    expect(alerta(9, e)).toBe('amarilla');
    expect(alerta(10, e)).toBe('roja');
  });

  it('counts minutes and writes them short', () => {
    const now = Date.parse('2026-11-22T13:09:59Z');
    expect(minutesSince('2026-11-22T13:00:00Z', now)).toBe(9);
    expect(minutesSince('2026-11-22T14:00:00Z', now)).toBe(0);
    expect(duration(9)).toBe('9 min');
    expect(duration(65)).toBe('1 h 05');
    expect(duration(3000)).toBe('2 d');
  });

  it('orders tickets by when they were sent', () => {
    const a = envio({ id_envio: 3, fec_envio: '2026-11-22T13:05:00Z' });
    const b = envio({ id_envio: 2, fec_envio: '2026-11-22T13:01:00Z' });
    const c = envio({ id_envio: 1, fec_envio: '2026-11-22T13:05:00Z' });
    expect(inSendOrder([a, b, c]).map((e) => e.id_envio)).toEqual([2, 1, 3]);
  });

  it('counts all day per product, cancellations taking away, bumped tickets left out', () => {
    const counts = allDay([
      envio({ lineas: [linea('Ceviche', 2), linea('Chicha', 1)] }),
      envio({ tipo: 'adicional', lineas: [linea('Ceviche', 1)] }),
      envio({ tipo: 'anulacion', lineas: [linea('Chicha', -1, null)] }),
      envio({ estado: 'listo', lineas: [linea('Lomo', 4)] }),
      envio({ estado: 'en_preparacion', lineas: [linea('Arroz', 3)] }),
    ]);
    expect(counts).toEqual([
      { producto: 'Arroz', cantidad: 3 },
      { producto: 'Ceviche', cantidad: 3 },
    ]);
  });

  it('strikes through cancelled and voided lines', () => {
    expect(struck(linea('Ceviche', -1))).toBe(true);
    expect(struck(linea('Ceviche', 1, null))).toBe(true);
    expect(struck(linea('Ceviche', 1))).toBe(false);
  });

  it('finds the later courses none of whose lines was sent', () => {
    expect(
      heldCourses([
        { curso: 1, estado_cocina: 'pendiente' },
        { curso: 2, estado_cocina: 'pendiente' },
        { curso: 3, estado_cocina: 'enviado' },
        { curso: 3, estado_cocina: 'pendiente' },
        { curso: 4, estado_cocina: 'pendiente' },
      ]),
    ).toEqual([2, 4]);
    expect(heldCourses([{ curso: 2 }])).toEqual([]);
  });

  it('keeps the station chosen on the device while it exists', () => {
    const list = [
      estacion({ id_estacion: 3, nombre: 'Expo', tipo: 'expo' }),
      estacion({ id_estacion: 1 }),
      estacion({ id_estacion: 2, nombre: 'Bar' }),
    ];
    expect(pickStation(list, '2')?.nombre).toBe('Bar');
    expect(pickStation(list, '9')?.nombre).toBe('Cocina');
    expect(pickStation([], null)).toBeNull();
  });
});
