import {
  buttonsOf,
  changeBody,
  chipsOf,
  createBody,
  draftOf,
  eventoLabel,
  fieldErrorsOf,
  hace,
  hasPending,
  isChecked,
  isCovered,
  MODULOS,
  motivoDesactivacion,
  nombre,
  refusalText,
  resultado,
  shortUrl,
  tipoLabel,
  toggleEvento,
  ultimoResultado,
  urlMotivo,
  whenSeconds,
  type Webhook,
} from './webhooks-rules';

const webhook = (over: Partial<Webhook> = {}): Webhook => ({
  id_webhook: 3,
  url: 'https://erp.example.com/hooks/comandas',
  eventos: ['comanda.cerrar', 'pago.*'],
  descripcion: 'Contabilidad',
  activo: true,
  estado: 'activo',
  motivo_desactivacion: null,
  fec_desactivacion: null,
  fallando_desde: null,
  secreto_anterior_hasta: null,
  created_at: '2026-11-28T10:15:00.000-05:00',
  updated_at: '2026-11-28T10:15:00.000-05:00',
  acciones: ['editar', 'probar', 'rotar', 'desactivar', 'eliminar'],
  ...over,
});

describe('the events to pick', () => {
  it('groups every type of the API by module, its wildcard apart, in the screen’s order', () => {
    expect(MODULOS.map((m) => [m.modulo, m.label, m.todos])).toEqual([
      ['comanda', 'Comandas', 'comanda.*'],
      ['pago', 'Pagos', 'pago.*'],
      ['cocina', 'Cocina', 'cocina.*'],
      ['sesion_caja', 'Caja', 'sesion_caja.*'],
      ['inventario', 'Inventario', 'inventario.*'],
    ]);
    expect(MODULOS.find((m) => m.modulo === 'pago')?.eventos).toEqual([
      { evento: 'pago.pagar', label: 'Pago registrado' },
      { evento: 'pago.anular_pago', label: 'Pago anulado' },
      { evento: 'pago.reembolsar', label: 'Reembolso' },
      { evento: 'pago.descontar', label: 'Descuento' },
    ]);
    const all = MODULOS.flatMap((m) => m.eventos.map((e) => e.evento));
    expect(all).toHaveLength(30);
    expect(all.every((e) => !e.endsWith('.*'))).toBe(true);
  });

  it('a module’s wildcard stands for its types: they are dropped, shown checked and disabled', () => {
    let chosen = toggleEvento([], 'comanda.cerrar', true);
    chosen = toggleEvento(chosen, 'pago.pagar', true);
    expect(chosen).toEqual(['comanda.cerrar', 'pago.pagar']);
    chosen = toggleEvento(chosen, 'comanda.*', true);
    expect(chosen).toEqual(['pago.pagar', 'comanda.*']);
    expect(isChecked(chosen, 'comanda.crear')).toBe(true);
    expect(isCovered(chosen, 'comanda.crear')).toBe(true);
    expect(isCovered(chosen, 'comanda.*')).toBe(false);
    expect(isCovered(chosen, 'pago.pagar')).toBe(false);
    expect(isChecked(chosen, 'pago.reembolsar')).toBe(false);
    // unchecked, the types are picked one by one again
    chosen = toggleEvento(chosen, 'comanda.*', false);
    expect(chosen).toEqual(['pago.pagar']);
    expect(isChecked(chosen, 'comanda.crear')).toBe(false);
    expect(toggleEvento(chosen, 'pago.pagar', false)).toEqual([]);
  });

  it('names events in Spanish, an unknown type as it is', () => {
    expect(eventoLabel('comanda.cerrar')).toBe('Cerrada');
    expect(eventoLabel('webhook.prueba')).toBe('Mensaje de prueba');
    expect(eventoLabel('comanda.nueva_cosa')).toBe('comanda.nueva_cosa');
    // a delivery's type says its module
    expect(tipoLabel('comanda.cerrar')).toBe('Comandas: cerrada');
    expect(tipoLabel('sesion_caja.retiro')).toBe('Caja: retiro de efectivo');
    expect(tipoLabel('webhook.prueba')).toBe('Mensaje de prueba');
    expect(tipoLabel('otro.tipo')).toBe('otro.tipo');
  });

  it('shows an endpoint’s events as one chip per module, in the screen’s order', () => {
    expect(chipsOf(['pago.*', 'otro.tipo', 'comanda.cerrar']).map((c) => c.label)).toEqual([
      'Comandas: cerrada',
      'Pagos: todos',
      'otro.tipo',
    ]);
    expect(chipsOf(['comanda.eliminar', 'comanda.cerrar'])).toEqual([
      {
        label: 'Comandas: cerrada, anulada',
        title: 'comanda.cerrar: Cerrada\ncomanda.eliminar: Anulada',
      },
    ]);
    expect(
      chipsOf(['cocina.listo', 'cocina.enviar', 'cocina.preparar']).map((c) => c.label),
    ).toEqual(['Cocina: 3 eventos']);
    const every = MODULOS.flatMap((m) => m.eventos.map((e) => e.evento));
    expect(chipsOf(every).map((c) => c.label)).toEqual([
      'Comandas: los 12 eventos',
      'Pagos: los 4 eventos',
      'Cocina: los 6 eventos',
      'Caja: los 4 eventos',
      'Inventario: los 4 eventos',
    ]);
    expect(chipsOf(['sesion_caja.*'])[0].title).toBe(
      'sesion_caja.*: todos los eventos de caja, también los que se agreguen',
    );
  });
});

describe('the form', () => {
  it('starts empty for a new endpoint, and as the endpoint is to change it', () => {
    expect(draftOf()).toEqual({ url: 'https://', descripcion: '', eventos: [] });
    expect(draftOf(webhook({ descripcion: null }))).toEqual({
      url: 'https://erp.example.com/hooks/comandas',
      descripcion: '',
      eventos: ['comanda.cerrar', 'pago.*'],
    });
  });

  it('sends a new endpoint’s URL and events in the screen’s order, the description when given', () => {
    expect(
      createBody({
        url: '  https://erp.example.com/h ',
        descripcion: ' ',
        eventos: ['pago.*', 'comanda.cerrar'],
      }),
    ).toEqual({
      body: { url: 'https://erp.example.com/h', eventos: ['comanda.cerrar', 'pago.*'] },
      errors: {},
    });
    expect(
      createBody({ url: 'https://erp.example.com/h', descripcion: 'ERP', eventos: ['pago.*'] })
        .body,
    ).toEqual({ url: 'https://erp.example.com/h', eventos: ['pago.*'], descripcion: 'ERP' });
  });

  it('says in Spanish what is missing before sending', () => {
    expect(createBody({ url: 'https://', descripcion: '', eventos: [] }).errors).toEqual({
      url: 'Indique la dirección que recibe los mensajes (https://…)',
      eventos: 'Elija al menos un evento',
    });
    expect(
      createBody({ url: 'erp.example.com', descripcion: '', eventos: ['pago.*'] }).errors,
    ).toEqual({ url: 'Una dirección completa, que empiece por https://' });
    expect(
      createBody({ url: 'https://erp.example.com/a b', descripcion: '', eventos: ['pago.*'] })
        .errors,
    ).toEqual({ url: 'La dirección no puede tener espacios' });
    expect(
      createBody({ url: 'https://x.pe', descripcion: 'x'.repeat(201), eventos: ['pago.*'] }).errors,
    ).toEqual({ descripcion: 'Hasta 200 caracteres' });
  });

  it('changes only what differs; a cleared description is null; the same events in another order are no change', () => {
    const w = webhook();
    expect(changeBody(w, { ...draftOf(w), eventos: ['pago.*', 'comanda.cerrar'] })).toEqual({
      body: {},
      errors: {},
    });
    expect(
      changeBody(w, {
        url: 'https://erp.example.com/v2',
        descripcion: '',
        eventos: ['comanda.*'],
      }).body,
    ).toEqual({ url: 'https://erp.example.com/v2', descripcion: null, eventos: ['comanda.*'] });
    // an event the page does not know is dropped from the choice: the events are sent
    expect(
      changeBody(webhook({ eventos: ['comanda.cerrar', 'futuro.tipo'] }), {
        ...draftOf(webhook({ eventos: ['comanda.cerrar', 'futuro.tipo'] })),
      }).body,
    ).toEqual({ eventos: ['comanda.cerrar'] });
  });

  it('puts a refusal at its field, the service’s reason in Spanish', () => {
    expect(
      fieldErrorsOf({
        code: 'WEBHOOK_URL_NOT_ALLOWED',
        message:
          'The webhook URL is not allowed: the host resolves to a private address (10.0.0.5)',
        detail: {
          url: 'https://erp.interno/x',
          motivo: 'the host resolves to a private address (10.0.0.5)',
        },
      }),
    ).toEqual({
      url: 'Dirección no permitida: apunta a una dirección privada o local (10.0.0.5), que no se puede usar (WEBHOOK_URL_NOT_ALLOWED)',
    });
    expect(
      fieldErrorsOf({
        code: 'WEBHOOK_UNKNOWN_EVENT',
        message: 'Unknown event type comanda.pagada',
        detail: { desconocidos: ['comanda.pagada'], validos: [] },
      }),
    ).toEqual({ eventos: 'El servicio no conoce comanda.pagada (WEBHOOK_UNKNOWN_EVENT)' });
    expect(
      fieldErrorsOf({
        code: 'VALIDATION_FAILED',
        message: 'Validation failed',
        detail: [
          'eventos must contain at least 1 elements',
          'url must be shorter than or equal to 2048 characters',
          'otra cosa',
        ],
      }),
    ).toEqual({
      eventos: 'eventos must contain at least 1 elements',
      url: 'url must be shorter than or equal to 2048 characters',
    });
    expect(fieldErrorsOf({ code: 'WEBHOOK_NOT_FOUND', message: 'x', detail: {} })).toEqual({});
  });

  it('translates the URL reasons it knows, and leaves the others as the service wrote them', () => {
    expect(urlMotivo('the scheme must be https')).toBe('debe ser https:// (cifrada)');
    expect(urlMotivo('the scheme must be http or https')).toBe('debe empezar por https://');
    expect(urlMotivo('the host erp.invalid does not resolve (ENOTFOUND)')).toBe(
      'el servidor erp.invalid no existe (no se encuentra)',
    );
    expect(urlMotivo('the host is a private address (127.0.0.1)')).toBe(
      'apunta a una dirección privada o local (127.0.0.1), que no se puede usar',
    );
    expect(urlMotivo('something new')).toBe('something new');
  });
});

describe('an endpoint on the screen', () => {
  it('shows exactly the buttons its acciones lists, in the screen’s order', () => {
    expect(
      buttonsOf(['eliminar', 'desactivar', 'rotar', 'probar', 'editar']).map((b) => b.label),
    ).toEqual(['Probar', 'Editar', 'Rotar secreto', 'Desactivar', 'Eliminar']);
    expect(buttonsOf(['editar', 'rotar', 'activar', 'eliminar']).map((b) => b.label)).toEqual([
      'Editar',
      'Rotar secreto',
      'Activar',
      'Eliminar',
    ]);
    expect(buttonsOf(['otra'])).toEqual([]);
  });

  it('shortens a URL keeping its host and the end of its path', () => {
    expect(shortUrl('https://erp.example.com/hooks/comandas')).toBe(
      'erp.example.com/hooks/comandas',
    );
    expect(shortUrl('https://erp.example.com/')).toBe('erp.example.com');
    // http stays visible: not encrypted
    expect(shortUrl('http://127.0.0.1:4000/hooks')).toBe('http://127.0.0.1:4000/hooks');
    const long =
      'https://contabilidad.example.com/api/v2/tenants/cevicheria-demo/webhooks/comandas-cerradas';
    expect(shortUrl(long, 64)).toBe('contabilidad.example.com/…/webhooks/comandas-cerradas');
    expect(shortUrl(long, 48)).toBe('contabilidad.example.com/…/comandas-cerradas');
    // a query (a token, often) is only hinted at once the URL is long
    expect(shortUrl('https://erp.example.com/hooks?token=abc')).toBe(
      'erp.example.com/hooks?token=abc',
    );
    expect(
      shortUrl(
        'http://127.0.0.1:4000/integraciones/v2/cevicheria-del-puerto/webhooks/comandas?token=8f14e45fceea167a5a36dedd4bea2543',
        64,
      ),
    ).toBe('http://127.0.0.1:4000/…/webhooks/comandas?…');
    expect(
      shortUrl('https://erp.example.com/hooks/comandas?token=8f14e45fceea167a5a36dedd4bea2543', 50),
    ).toBe('erp.example.com/hooks/comandas?…');
    // a last segment too long to fit whole: its beginning
    const token = `https://hooks.example.com/services/${'a'.repeat(40)}${'b'.repeat(40)}`;
    expect(shortUrl(token, 50)).toBe(`hooks.example.com/…/${'a'.repeat(28)}…`);
    expect(shortUrl(token, 50)).toHaveLength(49);
    expect(
      shortUrl(
        'http://127.0.0.1:46143/integraciones/v2/comandas-cerradas-y-pagos?token=8f14e45',
        48,
      ),
    ).toBe('http://127.0.0.1:46143/…/comandas-cerradas-y…?…');
    // a host that takes the whole room: cut at the end
    const host = `https://${'x'.repeat(70)}.example.com/a`;
    expect(shortUrl(host, 40)).toBe(`${'x'.repeat(39)}…`);
  });

  it('names it in a sentence by its description, or its URL when it has none', () => {
    expect(nombre(webhook())).toBe('«Contabilidad»');
    expect(
      nombre(webhook({ descripcion: 'Sistema contable del grupo, sucursal Chorrillos: todo' })),
    ).toBe('«Sistema contable del grupo, sucursal Ch…»');
    expect(nombre(webhook({ descripcion: null }))).toBe('erp.example.com/hooks/comandas');
    expect(nombre(webhook({ descripcion: '  ' }))).toBe('erp.example.com/hooks/comandas');
  });

  it('says why the service switched it off in Spanish', () => {
    expect(motivoDesactivacion('the receiver answered 410 Gone')).toBe(
      'el receptor respondió 410 (la dirección ya no existe)',
    );
    expect(motivoDesactivacion('no message delivered for 5 days')).toBe(
      'ningún mensaje entregado en 5 días',
    );
    expect(motivoDesactivacion('otra razón')).toBe('otra razón');
  });
});

describe('a refusal', () => {
  it('says the module’s own in Spanish with its code, and leaves the others alone', () => {
    expect(refusalText({ code: 'WEBHOOK_INACTIVE' })).toBe(
      'El webhook está desactivado: actívelo para enviarle mensajes (WEBHOOK_INACTIVE)',
    );
    expect(refusalText({ code: 'ENTREGA_NOT_FOUND' })).toMatch(/^Ese mensaje ya no existe/);
    expect(refusalText({ code: 'RATE_LIMITED' })).toBeNull();
  });
});

describe('a delivery on the screen', () => {
  it('says its last result in a few words', () => {
    expect(ultimoResultado({ intentos: 0, ultimo_status: null, ultimo_error: null })).toBe(
      'Aún sin intentos',
    );
    expect(resultado(200, null)).toBe('200 OK');
    expect(resultado(500, 'HTTP 500')).toBe('HTTP 500');
    expect(resultado(301, 'redirect not followed (301)')).toBe('301: redirect not followed (301)');
    expect(resultado(null, 'connect ECONNREFUSED 127.0.0.1:9')).toBe(
      'Sin respuesta: connect ECONNREFUSED 127.0.0.1:9',
    );
    expect(resultado(null, null)).toBe('Sin respuesta');
  });

  it('says how long ago in a sentence', () => {
    const now = Date.parse('2026-11-28T10:40:00-05:00');
    expect(hace('2026-11-28T10:39:30-05:00', now)).toBe('hace un momento');
    expect(hace('2026-11-28T10:15:00-05:00', now)).toBe('hace 25 min');
    expect(hace('2026-11-28T08:35:00-05:00', now)).toBe('hace 2 h 05');
  });

  it('writes an attempt’s time to the second, and knows when one is still on its way', () => {
    expect(whenSeconds('2026-11-28T10:15:01.120-05:00')).toBe('28/11/26 10:15:01');
    expect(whenSeconds(null)).toBe('—');
    expect(hasPending([{ estado: 'entregado' }, { estado: 'pendiente' }])).toBe(true);
    expect(hasPending([{ estado: 'entregado' }, { estado: 'fallido' }])).toBe(false);
  });
});
