import {
  buttonsOf,
  changeBody,
  createBody,
  dayFigures,
  draftOf,
  estadoLabel,
  fieldErrorsOf,
  lateText,
  mesaLabel,
  minutesLate,
  type Reserva,
} from './reservas-rules';

const reserva = (over: Partial<Reserva> = {}): Reserva => ({
  id_reserva: 41,
  nombre: 'Familia Pérez',
  personas: 4,
  fecha: '2026-11-28',
  hora: '20:30',
  id_mesa: 3,
  mesa: 3,
  telefono: '987 654 321',
  observacion: null,
  id_cliente: null,
  cliente: null,
  estado: 'pendiente',
  id_comanda: null,
  motivo: null,
  id_usuario_registro: null,
  fec_registro: '2026-11-22T13:05:09-05:00',
  id_usuario_estado: null,
  fec_estado: null,
  version: 1,
  acciones: ['editar', 'sentar', 'cancelar', 'no_show'],
  ...over,
});

describe('buttons', () => {
  it('shows exactly the actions the reservation lists, in the screen’s order', () => {
    expect(buttonsOf(['cancelar', 'editar', 'sentar', 'no_show']).map((b) => b.label)).toEqual([
      'Sentar',
      'Modificar',
      'No vino',
      'Cancelar',
    ]);
    // a cashier: no seating
    expect(buttonsOf(['editar', 'cancelar', 'no_show']).map((b) => b.accion)).toEqual([
      'editar',
      'no_show',
      'cancelar',
    ]);
    // a final state, or the kitchen: nothing
    expect(buttonsOf([])).toEqual([]);
    expect(buttonsOf(['reabrir'])).toEqual([]);
  });

  it('names states and tables for people', () => {
    expect(estadoLabel('no_show')).toBe('No vino');
    expect(mesaLabel({ numero: 3, zona: 'terraza', capacidad: 4 })).toBe(
      'Mesa 3 · terraza · 4 sillas',
    );
    expect(mesaLabel({ numero: 5, zona: null, capacidad: 1 })).toBe('Mesa 5 · 1 silla');
  });
});

describe('booking', () => {
  const today = '2026-11-22';

  it('sends the fields given, trimmed and typed', () => {
    const draft = {
      ...draftOf('2026-11-28'),
      nombre: ' Familia Pérez ',
      personas: '4',
      hora: '20:30',
      id_mesa: '3',
      telefono: ' ',
    };
    expect(createBody(draft, today)).toEqual({
      body: {
        nombre: 'Familia Pérez',
        personas: 4,
        fecha: '2026-11-28',
        hora: '20:30',
        id_mesa: 3,
      },
      errors: {},
    });
  });

  it('says what is missing or wrong, field by field', () => {
    const draft = { ...draftOf('2026-11-21'), personas: '51', hora: '' };
    expect(createBody(draft, today).errors).toEqual({
      nombre: 'Indique a nombre de quién es la reserva',
      personas: 'Un número de 1 a 50',
      fecha: 'El día ya pasó',
      hora: 'Indique la hora (HH:MM)',
    });
    expect(createBody({ ...draft, personas: '2.5' }, today).errors.personas).toBeDefined();
  });

  it('reads a time with seconds to the minute', () => {
    const draft = { ...draftOf('2026-11-28'), nombre: 'Ana', hora: '20:30:00' };
    expect(createBody(draft, today).body.hora).toBe('20:30');
  });
});

describe('changes', () => {
  const today = '2026-11-22';

  it('sends only what changed; a cleared table or phone is null', () => {
    const current = reserva();
    const draft = { ...draftOf(current.fecha, current), personas: '6', id_mesa: '', telefono: '' };
    expect(changeBody(current, draft, today)).toEqual({
      body: { personas: 6, id_mesa: null, telefono: null },
      errors: {},
    });
    expect(changeBody(current, draftOf(current.fecha, current), today).body).toEqual({});
  });

  it('leaves a past day alone when it is not the change', () => {
    const past = reserva({ fecha: '2026-11-20' });
    const draft = { ...draftOf(past.fecha, past), nombre: 'Pérez' };
    expect(changeBody(past, draft, today)).toEqual({ body: { nombre: 'Pérez' }, errors: {} });
  });
});

describe('refusals at their field', () => {
  const mesas = [
    { id_mesa: 7, numero: 3 },
    { id_mesa: 8, numero: 4 },
  ];

  it('puts a booked table at the table, with its number and the other booking', () => {
    expect(
      fieldErrorsOf(
        {
          code: 'MESA_ALREADY_BOOKED',
          message: 'Table 7 is booked at 2026-11-28 20:00 (reserva 40)',
          detail: { id_mesa: 7, id_reserva: 40, fecha: '2026-11-28', hora: '20:00', minutos: 120 },
        },
        mesas,
      ),
    ).toEqual({
      id_mesa:
        'La mesa 3 ya está reservada a las 20:00: entre dos reservas de una mesa deben pasar 120 minutos (MESA_ALREADY_BOOKED)',
    });
  });

  it('puts each validation message at its field', () => {
    expect(
      fieldErrorsOf(
        {
          code: 'VALIDATION_FAILED',
          message: 'Validation failed',
          detail: ['personas must not be greater than 50', 'hora must be a time HH:MM'],
        },
        mesas,
      ),
    ).toEqual({
      personas: 'personas must not be greater than 50',
      hora: 'hora must be a time HH:MM',
    });
    expect(fieldErrorsOf({ code: 'RESERVA_IN_THE_PAST', message: 'm', detail: {} }, mesas)).toEqual(
      { fecha: 'El día ya pasó (RESERVA_IN_THE_PAST)' },
    );
    expect(fieldErrorsOf({ code: 'STALE_VERSION', message: 'm' }, mesas)).toEqual({});
  });
});

describe('the day', () => {
  it('counts the bookings and the people still expected', () => {
    const day = [
      reserva({ personas: 4 }),
      reserva({ id_reserva: 42, personas: 2 }),
      reserva({ id_reserva: 43, personas: 6, estado: 'sentada' }),
      reserva({ id_reserva: 44, personas: 3, estado: 'cancelada' }),
    ];
    expect(dayFigures(day)).toEqual({ reservas: 4, pendientes: 2, esperadas: 6, sentadas: 1 });
  });

  it('knows when a party of today is late', () => {
    expect(minutesLate(reserva({ fecha: '2026-11-28' }), '2026-11-28', '20:50')).toBe(20);
    expect(minutesLate(reserva({ fecha: '2026-11-28' }), '2026-11-28', '20:00')).toBe(0);
    expect(minutesLate(reserva({ fecha: '2026-11-29' }), '2026-11-28', '23:00')).toBe(0);
    expect(
      minutesLate(reserva({ fecha: '2026-11-28', estado: 'sentada' }), '2026-11-28', '23:00'),
    ).toBe(0);
    expect(lateText(20)).toBe('20 min de retraso');
    expect(lateText(120)).toBe('2 h de retraso');
    expect(lateText(135)).toBe('2 h 15 min de retraso');
  });
});
