/**
 * Generated from the service's OpenAPI document by `npm run build` (scripts/generate-client.js).
 * Do not edit: change the service's DTOs and rebuild. `npm run lint` fails when this file is stale.
 */

export interface paths {
  '/api/v1/tenant': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /** The tenant of X-Tenant-ID: name, time zone and effective feature switches */
    get: operations['TenantController_current_v1'];
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/api/v1/me': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /** The caller: user, roles and permissions */
    get: operations['MeController_me_v1'];
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/api/health': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /** Liveness and readiness: the control database answers (503 otherwise); tenant databases that do not answer are listed (degraded) */
    get: operations['HealthController_health'];
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/api/v1/comandas/stream': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /**
     * Live changes of comandas (Server-Sent Events)
     * @description One `event: comanda` per audit entry, `id:` = the entry id, `data:` = the entry (accion, actor, time) and the comanda summary, whose `acciones` are what the subscriber may do to it now (as in GET /comandas); a comment heartbeat every 15 s. Last-Event-ID (or lastEventId) replays what came after it, up to 1,000 entries or 24 hours; beyond, `event: reset` (reload the list). 503 TOO_MANY_STREAMS past SSE_MAX_CLIENTS on this instance, 429 past the tenant's (SSE_MAX_PER_TENANT) or the user's (SSE_MAX_PER_USER) share of it. With a token, the stream lasts as long as its session: a sign-out, a deactivation, a change of credentials or the expiry end it with an `event: end` ({reason, error}).
     */
    get: operations['ComandaStreamController_stream_v1'];
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/api/v1/comandas': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /**
     * List comandas, newest first
     * @description Deleted ones only with eliminada=true. The total count is in X-Total-Count.
     */
    get: operations['ComandasController_list_v1'];
    put?: never;
    /** Open a comanda (optionally with its first lines) */
    post: operations['ComandasController_create_v1'];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/api/v1/comandas/{id}': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /** A comanda with its lines (also when eliminada) */
    get: operations['ComandasController_get_v1'];
    /**
     * Transition (abrir, cerrar, restaurar) or partial change of an open comanda
     * @description {"action":"cerrar"} closes an open comanda (total = sum of its lines); "abrir" reopens a closed one; "restaurar" undoes a logical delete. Without action: a change of id_mesa, id_usuario, id_cliente, observacion while abierta; id_mesa alone is a transfer (audited as transferir). An action with fields, or an unknown field, is 400.
     */
    put: operations['ComandasController_update_v1'];
    post?: never;
    /**
     * Logical delete: the row is kept with eliminada = true
     * @description An optional reason (motivo) in the JSON body or the query is kept in the audit trail.
     */
    delete: operations['ComandasController_remove_v1'];
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/api/v1/comandas/{id}/eventos': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /** Audit trail of the comanda, oldest first */
    get: operations['ComandasController_events_v1'];
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/api/v1/comandas/{id}/items': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    /** Add a line to an open comanda, at the product price of now */
    post: operations['ComandasController_addItem_v1'];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/api/v1/comandas/{id}/items/{itemId}': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    post?: never;
    /**
     * Void a line of an open comanda
     * @description An optional reason (motivo) in the JSON body or the query is kept in the audit trail with a snapshot of the line.
     */
    delete: operations['ComandasController_removeItem_v1'];
    options?: never;
    head?: never;
    /** Change the quantity or note of a line of an open comanda */
    patch: operations['ComandasController_changeItem_v1'];
    trace?: never;
  };
  '/api/v1/comandas/{id}/split': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    /**
     * Split: move quantities of lines to a new open comanda
     * @description Each listed line moves whole when its cantidad is all of it, or is split in two (same product, price, note, author) when less. The new comanda sits at id_mesa (default: the same table) with id_cliente (default: none). If-Match applies to the comanda split. Both get a dividir audit entry.
     */
    post: operations['ComandasController_split_v1'];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/api/v1/comandas/{id}/merge': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    /**
     * Merge: move every line of other open comandas into this one
     * @description Every comanda listed must be abierta (409 INVALID_TRANSITION naming it otherwise); each ends eliminada with motivo "unida a {numero_ticket}". If-Match applies to this comanda. Every comanda touched gets a unir audit entry and a new version.
     */
    post: operations['ComandasController_merge_v1'];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/api/v1/productos': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /**
     * Products, by category name then product name
     * @description q searches the name ignoring case (accents must match; `%` and `_` are literal). The total count is in X-Total-Count.
     */
    get: operations['CatalogoController_productos_v1'];
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/api/v1/mesas': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /**
     * Dining tables by number, each with its open comandas
     * @description abiertas: the comandas abierta and not deleted at the table.
     */
    get: operations['CatalogoController_mesas_v1'];
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/api/v1/mozos': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /**
     * Waiters by name, to pick one or filter comandas by one
     * @description Staff holding the mozo role, and anyone who is the waiter of a comanda. Their name only.
     */
    get: operations['CatalogoController_mozos_v1'];
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/api/v1/reservas': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /**
     * [switchable, on by default] The reservations of one business day, in time order
     * @description Switchable feature `reservas`, on by default on this instance (`FEATURE_RESERVAS=true`). While it is off for a tenant, this route answers 404 `NOT_FOUND` exactly like a route that does not exist. Switch it for every tenant with `FEATURE_RESERVAS=true` (or `false`), or for one tenant with `npm run tenant -- feature SLUG reservas on` (or `off`; `default` follows the variable again); `GET /api/v1/tenant` shows a tenant’s effective switches.
     *
     *     fecha defaults to today in the tenant’s time zone. The total count is in X-Total-Count.
     */
    get: operations['ReservasController_list_v1'];
    put?: never;
    /**
     * [switchable, on by default] Book a reservation (with or without its table)
     * @description Switchable feature `reservas`, on by default on this instance (`FEATURE_RESERVAS=true`). While it is off for a tenant, this route answers 404 `NOT_FOUND` exactly like a route that does not exist. Switch it for every tenant with `FEATURE_RESERVAS=true` (or `false`), or for one tenant with `npm run tenant -- feature SLUG reservas on` (or `off`; `default` follows the variable again); `GET /api/v1/tenant` shows a tenant’s effective switches.
     */
    post: operations['ReservasController_create_v1'];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/api/v1/reservas/{id}': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /**
     * [switchable, on by default] A reservation
     * @description Switchable feature `reservas`, on by default on this instance (`FEATURE_RESERVAS=true`). While it is off for a tenant, this route answers 404 `NOT_FOUND` exactly like a route that does not exist. Switch it for every tenant with `FEATURE_RESERVAS=true` (or `false`), or for one tenant with `npm run tenant -- feature SLUG reservas on` (or `off`; `default` follows the variable again); `GET /api/v1/tenant` shows a tenant’s effective switches.
     */
    get: operations['ReservasController_get_v1'];
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    /**
     * [switchable, on by default] Partial change of a pendiente reservation
     * @description Switchable feature `reservas`, on by default on this instance (`FEATURE_RESERVAS=true`). While it is off for a tenant, this route answers 404 `NOT_FOUND` exactly like a route that does not exist. Switch it for every tenant with `FEATURE_RESERVAS=true` (or `false`), or for one tenant with `npm run tenant -- feature SLUG reservas on` (or `off`; `default` follows the variable again); `GET /api/v1/tenant` shows a tenant’s effective switches.
     *
     *     The fields sent change, the others stay; id_mesa, telefono, observacion and id_cliente can be cleared with null. A new table, day or time is checked against the table rule.
     */
    patch: operations['ReservasController_update_v1'];
    trace?: never;
  };
  '/api/v1/reservas/{id}/sentar': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    /**
     * [switchable, on by default] Seat the party: pendiente → sentada, opening a comanda on the table
     * @description Switchable feature `reservas`, on by default on this instance (`FEATURE_RESERVAS=true`). While it is off for a tenant, this route answers 404 `NOT_FOUND` exactly like a route that does not exist. Switch it for every tenant with `FEATURE_RESERVAS=true` (or `false`), or for one tenant with `npm run tenant -- feature SLUG reservas on` (or `off`; `default` follows the variable again); `GET /api/v1/tenant` shows a tenant’s effective switches.
     *
     *     The comanda is opened in the same transaction: if it cannot be opened (an unknown table or waiter), the reservation stays pendiente. The answer carries its id_comanda.
     */
    post: operations['ReservasController_seat_v1'];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/api/v1/reservas/{id}/cancelar': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    /**
     * [switchable, on by default] Cancel: pendiente → cancelada, with a reason
     * @description Switchable feature `reservas`, on by default on this instance (`FEATURE_RESERVAS=true`). While it is off for a tenant, this route answers 404 `NOT_FOUND` exactly like a route that does not exist. Switch it for every tenant with `FEATURE_RESERVAS=true` (or `false`), or for one tenant with `npm run tenant -- feature SLUG reservas on` (or `off`; `default` follows the variable again); `GET /api/v1/tenant` shows a tenant’s effective switches.
     */
    post: operations['ReservasController_cancel_v1'];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/api/v1/reservas/{id}/no-show': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    /**
     * [switchable, on by default] The party did not come: pendiente → no_show
     * @description Switchable feature `reservas`, on by default on this instance (`FEATURE_RESERVAS=true`). While it is off for a tenant, this route answers 404 `NOT_FOUND` exactly like a route that does not exist. Switch it for every tenant with `FEATURE_RESERVAS=true` (or `false`), or for one tenant with `npm run tenant -- feature SLUG reservas on` (or `off`; `default` follows the variable again); `GET /api/v1/tenant` shows a tenant’s effective switches.
     */
    post: operations['ReservasController_noShow_v1'];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/api/v1/device-drivers': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /** The drivers loaded at start (drivers/ and DEVICE_DRIVERS_PATH) */
    get: operations['DeviceDriversController_list_v1'];
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/api/v1/device-drivers/validate': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    /**
     * Validate a manifest: {valid, errors: [{path, message}], warnings: [{path, message}]}
     * @description valid and errors follow the manifest schema alone (extra properties allowed): a valid manifest is loaded. warnings say what importing with it needs: the record format a file or http driver reads with (a ZKTeco layout is assumed when it names none) and why it cannot import (an unknown format, invalid settings).
     */
    post: operations['DeviceDriversController_validate_v1'];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/api/v1/asistencia/import': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    /**
     * Import a time-clock export into import_asistencia
     * @description multipart/form-data: `file` (attlog.dat, CSV ...) and `driver` (a file driver). Streamed in batches; importing the same file again inserts nothing.
     */
    post: operations['AttendanceImportController_import_v1'];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/api/v1/tables': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /**
     * [switchable, on by default] The table and view names the generic routes accept
     * @description Switchable feature `genericTables`, on by default on this instance (`FEATURE_GENERIC_TABLES=true`). While it is off for a tenant, this route answers 404 `NOT_FOUND` exactly like a route that does not exist. Switch it for every tenant with `FEATURE_GENERIC_TABLES=true` (or `false`), or for one tenant with `npm run tenant -- feature SLUG genericTables on` (or `off`; `default` follows the variable again); `GET /api/v1/tenant` shows a tenant’s effective switches.
     */
    get: operations['GenericTablesController_tables_v1'];
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/api/v1/schema/{table}': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /**
     * [switchable, on by default] Columns of a table with their metadata and foreign key
     * @description Switchable feature `genericTables`, on by default on this instance (`FEATURE_GENERIC_TABLES=true`). While it is off for a tenant, this route answers 404 `NOT_FOUND` exactly like a route that does not exist. Switch it for every tenant with `FEATURE_GENERIC_TABLES=true` (or `false`), or for one tenant with `npm run tenant -- feature SLUG genericTables on` (or `off`; `default` follows the variable again); `GET /api/v1/tenant` shows a tenant’s effective switches.
     */
    get: operations['GenericTablesController_schema_v1'];
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/api/v1/options/{table}/{column}': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /**
     * [switchable, on by default] {id, label} of the table a column points to, ordered by label, at most 1000
     * @description Switchable feature `genericTables`, on by default on this instance (`FEATURE_GENERIC_TABLES=true`). While it is off for a tenant, this route answers 404 `NOT_FOUND` exactly like a route that does not exist. Switch it for every tenant with `FEATURE_GENERIC_TABLES=true` (or `false`), or for one tenant with `npm run tenant -- feature SLUG genericTables on` (or `off`; `default` follows the variable again); `GET /api/v1/tenant` shows a tenant’s effective switches.
     *
     *     Label: nombre, razon_social, documento, else the first text column. [] without a foreign key.
     */
    get: operations['GenericTablesController_options_v1'];
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/api/v1/table/{table}': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /**
     * [switchable, on by default] Rows of a table, newest primary key first
     * @description Switchable feature `genericTables`, on by default on this instance (`FEATURE_GENERIC_TABLES=true`). While it is off for a tenant, this route answers 404 `NOT_FOUND` exactly like a route that does not exist. Switch it for every tenant with `FEATURE_GENERIC_TABLES=true` (or `false`), or for one tenant with `npm run tenant -- feature SLUG genericTables on` (or `off`; `default` follows the variable again); `GET /api/v1/tenant` shows a tenant’s effective switches.
     *
     *     limit: default 100; above 1000 gives 1000; not a positive integer is 400 INVALID_LIMIT.
     */
    get: operations['GenericTablesController_rows_v1'];
    put?: never;
    /**
     * [switchable, on by default] Insert a row: insertable columns only, other keys ignored, all defaults when none is usable
     * @description Switchable feature `genericTables`, on by default on this instance (`FEATURE_GENERIC_TABLES=true`). While it is off for a tenant, this route answers 404 `NOT_FOUND` exactly like a route that does not exist. Switch it for every tenant with `FEATURE_GENERIC_TABLES=true` (or `false`), or for one tenant with `npm run tenant -- feature SLUG genericTables on` (or `off`; `default` follows the variable again); `GET /api/v1/tenant` shows a tenant’s effective switches.
     *
     *     A table a module owns (GET /schema/:table: read_only, owner) is refused with 400 TABLE_READ_ONLY before any SQL; the view with 400 NOT_INSERTABLE.
     */
    post: operations['GenericTablesController_insert_v1'];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/api/v1/rpc/get_producto/{id}': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /**
     * [switchable, on by default] A product with its recipe
     * @description Switchable feature `rpc`, on by default on this instance (`FEATURE_RPC=true`). While it is off for a tenant, this route answers 404 `NOT_FOUND` exactly like a route that does not exist. Switch it for every tenant with `FEATURE_RPC=true` (or `false`), or for one tenant with `npm run tenant -- feature SLUG rpc on` (or `off`; `default` follows the variable again); `GET /api/v1/tenant` shows a tenant’s effective switches.
     */
    get: operations['RpcController_getProducto_v1'];
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/api/v1/rpc/save_producto': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    /**
     * [switchable, on by default] Insert or update a product and replace its recipe → {id_producto}
     * @description Switchable feature `rpc`, on by default on this instance (`FEATURE_RPC=true`). While it is off for a tenant, this route answers 404 `NOT_FOUND` exactly like a route that does not exist. Switch it for every tenant with `FEATURE_RPC=true` (or `false`), or for one tenant with `npm run tenant -- feature SLUG rpc on` (or `off`; `default` follows the variable again); `GET /api/v1/tenant` shows a tenant’s effective switches.
     */
    post: operations['RpcController_saveProducto_v1'];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/api/v1/rpc/get_materia/{id}': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /**
     * [switchable, on by default] A raw material with its suppliers
     * @description Switchable feature `rpc`, on by default on this instance (`FEATURE_RPC=true`). While it is off for a tenant, this route answers 404 `NOT_FOUND` exactly like a route that does not exist. Switch it for every tenant with `FEATURE_RPC=true` (or `false`), or for one tenant with `npm run tenant -- feature SLUG rpc on` (or `off`; `default` follows the variable again); `GET /api/v1/tenant` shows a tenant’s effective switches.
     */
    get: operations['RpcController_getMateria_v1'];
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/api/v1/rpc/save_materia': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    /**
     * [switchable, on by default] Insert or update a raw material and replace its suppliers → {id_mat_prima}
     * @description Switchable feature `rpc`, on by default on this instance (`FEATURE_RPC=true`). While it is off for a tenant, this route answers 404 `NOT_FOUND` exactly like a route that does not exist. Switch it for every tenant with `FEATURE_RPC=true` (or `false`), or for one tenant with `npm run tenant -- feature SLUG rpc on` (or `off`; `default` follows the variable again); `GET /api/v1/tenant` shows a tenant’s effective switches.
     */
    post: operations['RpcController_saveMateria_v1'];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/api/v1/rpc/find_usuarios_por_documentos': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    /**
     * [switchable, on by default] Users keyed by document number (a non-array docs is empty)
     * @description Switchable feature `rpc`, on by default on this instance (`FEATURE_RPC=true`). While it is off for a tenant, this route answers 404 `NOT_FOUND` exactly like a route that does not exist. Switch it for every tenant with `FEATURE_RPC=true` (or `false`), or for one tenant with `npm run tenant -- feature SLUG rpc on` (or `off`; `default` follows the variable again); `GET /api/v1/tenant` shows a tenant’s effective switches.
     */
    post: operations['RpcController_findUsuarios_v1'];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/api/v1/rpc/import_asistencia': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    /**
     * [switchable, on by default] Import attendance punches (idempotent) and re-pair the affected days
     * @description Switchable feature `rpc`, on by default on this instance (`FEATURE_RPC=true`). While it is off for a tenant, this route answers 404 `NOT_FOUND` exactly like a route that does not exist. Switch it for every tenant with `FEATURE_RPC=true` (or `false`), or for one tenant with `npm run tenant -- feature SLUG rpc on` (or `off`; `default` follows the variable again); `GET /api/v1/tenant` shows a tenant’s effective switches.
     */
    post: operations['RpcController_importAsistencia_v1'];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/api/v1/rpc/asistencia_get': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    /**
     * [switchable, on by default] A person's raw punches and paired intervals for a range
     * @description Switchable feature `rpc`, on by default on this instance (`FEATURE_RPC=true`). While it is off for a tenant, this route answers 404 `NOT_FOUND` exactly like a route that does not exist. Switch it for every tenant with `FEATURE_RPC=true` (or `false`), or for one tenant with `npm run tenant -- feature SLUG rpc on` (or `off`; `default` follows the variable again); `GET /api/v1/tenant` shows a tenant’s effective switches.
     *
     *     doc, desde and hasta are required: a missing or malformed one (a date that is not YYYY-MM-DD, a blank document) is 400 VALIDATION_FAILED naming it.
     */
    post: operations['RpcController_asistenciaGet_v1'];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/api/v1/rpc/asistencia_update_raw': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    /**
     * [switchable, on by default] Correct a raw punch; the pairs are recalculated
     * @description Switchable feature `rpc`, on by default on this instance (`FEATURE_RPC=true`). While it is off for a tenant, this route answers 404 `NOT_FOUND` exactly like a route that does not exist. Switch it for every tenant with `FEATURE_RPC=true` (or `false`), or for one tenant with `npm run tenant -- feature SLUG rpc on` (or `off`; `default` follows the variable again); `GET /api/v1/tenant` shows a tenant’s effective switches.
     */
    post: operations['RpcController_asistenciaUpdateRaw_v1'];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/api/v1/rpc/asistencia_delete_raw': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    /**
     * [switchable, on by default] Delete a raw punch; the pairs are recalculated
     * @description Switchable feature `rpc`, on by default on this instance (`FEATURE_RPC=true`). While it is off for a tenant, this route answers 404 `NOT_FOUND` exactly like a route that does not exist. Switch it for every tenant with `FEATURE_RPC=true` (or `false`), or for one tenant with `npm run tenant -- feature SLUG rpc on` (or `off`; `default` follows the variable again); `GET /api/v1/tenant` shows a tenant’s effective switches.
     */
    post: operations['RpcController_asistenciaDeleteRaw_v1'];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/api/v1/rpc/report_tickets': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    /**
     * [switchable, on by default] Yearly ticket report: per month, count and total of closed comandas
     * @description Switchable feature `rpc`, on by default on this instance (`FEATURE_RPC=true`). While it is off for a tenant, this route answers 404 `NOT_FOUND` exactly like a route that does not exist. Switch it for every tenant with `FEATURE_RPC=true` (or `false`), or for one tenant with `npm run tenant -- feature SLUG rpc on` (or `off`; `default` follows the variable again); `GET /api/v1/tenant` shows a tenant’s effective switches.
     *
     *     year from the body, else the query; an integer 2000-2100, else the current year.
     */
    post: operations['RpcController_reportTickets_v1'];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/api/v1/rpc/report_asistencia': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    /**
     * [switchable, on by default] Attendance report per person
     * @description Switchable feature `rpc`, on by default on this instance (`FEATURE_RPC=true`). While it is off for a tenant, this route answers 404 `NOT_FOUND` exactly like a route that does not exist. Switch it for every tenant with `FEATURE_RPC=true` (or `false`), or for one tenant with `npm run tenant -- feature SLUG rpc on` (or `off`; `default` follows the variable again); `GET /api/v1/tenant` shows a tenant’s effective switches.
     *
     *     desde/hasta YYYY-MM-DD; otherwise the 30 days before today through today.
     */
    post: operations['RpcController_reportAsistencia_v1'];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/api/v1/rpc/save_compra': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    /**
     * [switchable, on by default] Insert (id_compra null) or update a purchase with its lines → {id_compra, total}
     * @description Switchable feature `rpc`, on by default on this instance (`FEATURE_RPC=true`). While it is off for a tenant, this route answers 404 `NOT_FOUND` exactly like a route that does not exist. Switch it for every tenant with `FEATURE_RPC=true` (or `false`), or for one tenant with `npm run tenant -- feature SLUG rpc on` (or `off`; `default` follows the variable again); `GET /api/v1/tenant` shows a tenant’s effective switches.
     */
    post: operations['RpcController_saveCompra_v1'];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/api/v1/rpc/get_compra': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    /**
     * [switchable, on by default] A purchase with its lines, for editing
     * @description Switchable feature `rpc`, on by default on this instance (`FEATURE_RPC=true`). While it is off for a tenant, this route answers 404 `NOT_FOUND` exactly like a route that does not exist. Switch it for every tenant with `FEATURE_RPC=true` (or `false`), or for one tenant with `npm run tenant -- feature SLUG rpc on` (or `off`; `default` follows the variable again); `GET /api/v1/tenant` shows a tenant’s effective switches.
     */
    post: operations['RpcController_getCompra_v1'];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/api/v1/rpc/delete_compra': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    /**
     * [switchable, on by default] Delete a purchase with its lines → {ok: true}
     * @description Switchable feature `rpc`, on by default on this instance (`FEATURE_RPC=true`). While it is off for a tenant, this route answers 404 `NOT_FOUND` exactly like a route that does not exist. Switch it for every tenant with `FEATURE_RPC=true` (or `false`), or for one tenant with `npm run tenant -- feature SLUG rpc on` (or `off`; `default` follows the variable again); `GET /api/v1/tenant` shows a tenant’s effective switches.
     */
    post: operations['RpcController_deleteCompra_v1'];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/api/v1/rpc/report_gastos': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /**
     * [switchable, on by default] Yearly expenses (query variant of POST report_gastos)
     * @description Switchable feature `rpc`, on by default on this instance (`FEATURE_RPC=true`). While it is off for a tenant, this route answers 404 `NOT_FOUND` exactly like a route that does not exist. Switch it for every tenant with `FEATURE_RPC=true` (or `false`), or for one tenant with `npm run tenant -- feature SLUG rpc on` (or `off`; `default` follows the variable again); `GET /api/v1/tenant` shows a tenant’s effective switches.
     */
    get: operations['RpcController_reportGastosQuery_v1'];
    put?: never;
    /**
     * [switchable, on by default] Yearly expenses: per month and per supplier (year: int, default current)
     * @description Switchable feature `rpc`, on by default on this instance (`FEATURE_RPC=true`). While it is off for a tenant, this route answers 404 `NOT_FOUND` exactly like a route that does not exist. Switch it for every tenant with `FEATURE_RPC=true` (or `false`), or for one tenant with `npm run tenant -- feature SLUG rpc on` (or `off`; `default` follows the variable again); `GET /api/v1/tenant` shows a tenant’s effective switches.
     */
    post: operations['RpcController_reportGastos_v1'];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/api/v1/auth/login': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    /**
     * Sign in with documento and password
     * @description Answers a session token (JWT, AUTH_SESSION_HOURS long). One 401 INVALID_CREDENTIALS for an unknown documento, a wrong password or an inactive user; at most 5 attempts for the account within 15 minutes, each reserved before the password is hashed (parallel guesses included): 429 TOO_MANY_ATTEMPTS with Retry-After beyond. A client address with SIGN_IN_QUEUE_PER_CLIENT sign-ins waiting for a hash gets 429 SIGN_IN_BUSY, an instance with SIGN_IN_QUEUE_MAX waiting 503 SIGN_IN_BUSY, both with Retry-After.
     */
    post: operations['SignInController_login_v1'];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/api/v1/auth/pin': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    /**
     * Sign in with a PIN (the floor tablet)
     * @description A PIN alone finds its owner (PINs are unique among the staff); with id_usuario, it must be that user’s. One 401 INVALID_CREDENTIALS for any wrong PIN; at most 5 attempts from one client address (or for one id_usuario) within 15 minutes, each reserved before the PIN is hashed (parallel guesses included; a success gives its own back): 429 TOO_MANY_ATTEMPTS with Retry-After beyond. The hash queue answers 429 or 503 SIGN_IN_BUSY with Retry-After as for login.
     */
    post: operations['SignInController_pin_v1'];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/api/v1/auth/logout': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    /**
     * Sign out: the token stops working at once
     * @description Revokes the session of the token sent (its jti); other sessions of the user go on. On another instance of the service the token stops within TENANT_CACHE_TTL_MS.
     */
    post: operations['SignInController_logout_v1'];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/api/v1/usuarios/{id}/credenciales': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    /**
     * Set or remove a staff member’s password and/or PIN
     * @description Stored only as slow salted hashes (scrypt); never returned. A password has at least 10 characters; a PIN has 4 to 6 digits, is not trivial (0000, 1234, 1212 ...) and is not another active staff member’s. Any change ends every open session of the user.
     */
    put: operations['CredentialsController_set_v1'];
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/api/v1/comandas/{id}/pagos': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    /**
     * [switchable, on by default] Take a payment of an open comanda
     * @description Switchable feature `cobros`, on by default on this instance (`FEATURE_COBROS=true`). While it is off for a tenant, this route answers 404 `NOT_FOUND` exactly like a route that does not exist. Switch it for every tenant with `FEATURE_COBROS=true` (or `false`), or for one tenant with `npm run tenant -- feature SLUG cobros on` (or `off`; `default` follows the variable again); `GET /api/v1/tenant` shows a tenant’s effective switches.
     *
     *     Goes to the open session of id_caja, else the session the caller opened, else the only open one. Not cash: at most the balance. Cash: a monto that reaches the cash balance (saldo_efectivo, rounded down to S/ 0.10) settles it, the rest is change (vuelto); recibido − vuelto = monto + propina.
     */
    post: operations['CobrosController_pay_v1'];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/api/v1/comandas/{id}/pagos/simulacion': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    /**
     * [switchable, on by default] What a payment of an open comanda would do, without taking it
     * @description Switchable feature `cobros`, on by default on this instance (`FEATURE_COBROS=true`). While it is off for a tenant, this route answers 404 `NOT_FOUND` exactly like a route that does not exist. Switch it for every tenant with `FEATURE_COBROS=true` (or `false`), or for one tenant with `npm run tenant -- feature SLUG cobros on` (or `off`; `default` follows the variable again); `GET /api/v1/tenant` shows a tenant’s effective switches.
     *
     *     The body, the permission, If-Match and every refusal of POST /comandas/{id}/pagos: the payment is worked out by that route’s own code, in a transaction rolled back at its end. Nothing is written: no payment, no new version, no audit entry, no event on the stream, no webhook message, no idempotency record (an Idempotency-Key is ignored). Answers what the bill would take, the tip, what was handed over and the change, the till that would take it, and the bill after it, with whether it settles it (salda).
     */
    post: operations['CobrosController_simulatePayment_v1'];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/api/v1/comandas/{id}/pagos/{idPago}': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    post?: never;
    /**
     * [switchable, on by default] Void a payment (kept, estado anulado) while the comanda is abierta
     * @description Switchable feature `cobros`, on by default on this instance (`FEATURE_COBROS=true`). While it is off for a tenant, this route answers 404 `NOT_FOUND` exactly like a route that does not exist. Switch it for every tenant with `FEATURE_COBROS=true` (or `false`), or for one tenant with `npm run tenant -- feature SLUG cobros on` (or `off`; `default` follows the variable again); `GET /api/v1/tenant` shows a tenant’s effective switches.
     *
     *     The reason (motivo) is required, in the JSON body or the query. Refused once the payment’s session is closed (409 SESION_CERRADA).
     */
    delete: operations['CobrosController_voidPayment_v1'];
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/api/v1/comandas/{id}/reembolsos': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    /**
     * [switchable, on by default] Refund (part of) a payment of a closed comanda
     * @description Switchable feature `cobros`, on by default on this instance (`FEATURE_COBROS=true`). While it is off for a tenant, this route answers 404 `NOT_FOUND` exactly like a route that does not exist. Switch it for every tenant with `FEATURE_COBROS=true` (or `false`), or for one tenant with `npm run tenant -- feature SLUG cobros on` (or `off`; `default` follows the variable again); `GET /api/v1/tenant` shows a tenant’s effective switches.
     *
     *     The money comes out of the current open session (id_caja, or as for a payment); the refunds of a payment add up to at most its monto. The comanda stays cerrada; its estado_pago becomes reembolso_parcial or reembolsada.
     */
    post: operations['CobrosController_refund_v1'];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/api/v1/comandas/{id}/descuento': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    /**
     * [switchable, on by default] Set the discount of an open comanda (before the service charge)
     * @description Switchable feature `cobros`, on by default on this instance (`FEATURE_COBROS=true`). While it is off for a tenant, this route answers 404 `NOT_FOUND` exactly like a route that does not exist. Switch it for every tenant with `FEATURE_COBROS=true` (or `false`), or for one tenant with `npm run tenant -- feature SLUG cobros on` (or `off`; `default` follows the variable again); `GET /api/v1/tenant` shows a tenant’s effective switches.
     *
     *     Replaces the discount it had; valor 0 removes it. A percentage of the lines (at most 100) or an amount (at most the lines’ sum).
     */
    post: operations['CobrosController_discount_v1'];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/api/v1/metodos-pago': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /**
     * [switchable, on by default] The payment methods in use
     * @description Switchable feature `cobros`, on by default on this instance (`FEATURE_COBROS=true`). While it is off for a tenant, this route answers 404 `NOT_FOUND` exactly like a route that does not exist. Switch it for every tenant with `FEATURE_COBROS=true` (or `false`), or for one tenant with `npm run tenant -- feature SLUG cobros on` (or `off`; `default` follows the variable again); `GET /api/v1/tenant` shows a tenant’s effective switches.
     */
    get: operations['CajasController_metodos_v1'];
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/api/v1/cajas': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /**
     * [switchable, on by default] The tills, each with its open session if any
     * @description Switchable feature `cobros`, on by default on this instance (`FEATURE_COBROS=true`). While it is off for a tenant, this route answers 404 `NOT_FOUND` exactly like a route that does not exist. Switch it for every tenant with `FEATURE_COBROS=true` (or `false`), or for one tenant with `npm run tenant -- feature SLUG cobros on` (or `off`; `default` follows the variable again); `GET /api/v1/tenant` shows a tenant’s effective switches.
     */
    get: operations['CajasController_list_v1'];
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/api/v1/cajas/{id}/sesiones': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    /**
     * [switchable, on by default] Open a session of a till with its float
     * @description Switchable feature `cobros`, on by default on this instance (`FEATURE_COBROS=true`). While it is off for a tenant, this route answers 404 `NOT_FOUND` exactly like a route that does not exist. Switch it for every tenant with `FEATURE_COBROS=true` (or `false`), or for one tenant with `npm run tenant -- feature SLUG cobros on` (or `off`; `default` follows the variable again); `GET /api/v1/tenant` shows a tenant’s effective switches.
     *
     *     One open session per till: a second is 409 SESION_YA_ABIERTA.
     */
    post: operations['CajasController_open_v1'];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/api/v1/sesiones-caja': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /**
     * [switchable, on by default] Till sessions, newest first
     * @description Switchable feature `cobros`, on by default on this instance (`FEATURE_COBROS=true`). While it is off for a tenant, this route answers 404 `NOT_FOUND` exactly like a route that does not exist. Switch it for every tenant with `FEATURE_COBROS=true` (or `false`), or for one tenant with `npm run tenant -- feature SLUG cobros on` (or `off`; `default` follows the variable again); `GET /api/v1/tenant` shows a tenant’s effective switches.
     *
     *     The total count is in X-Total-Count.
     */
    get: operations['CajasController_sessions_v1'];
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/api/v1/sesiones-caja/{id}': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /**
     * [switchable, on by default] A till session with its figures: the X while open (live), the Z once closed
     * @description Switchable feature `cobros`, on by default on this instance (`FEATURE_COBROS=true`). While it is off for a tenant, this route answers 404 `NOT_FOUND` exactly like a route that does not exist. Switch it for every tenant with `FEATURE_COBROS=true` (or `false`), or for one tenant with `npm run tenant -- feature SLUG cobros on` (or `off`; `default` follows the variable again); `GET /api/v1/tenant` shows a tenant’s effective switches.
     */
    get: operations['CajasController_session_v1'];
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/api/v1/sesiones-caja/{id}/reporte': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /**
     * [switchable, on by default] The X (open) or Z (closed) report, as JSON or for a 42-column receipt printer
     * @description Switchable feature `cobros`, on by default on this instance (`FEATURE_COBROS=true`). While it is off for a tenant, this route answers 404 `NOT_FOUND` exactly like a route that does not exist. Switch it for every tenant with `FEATURE_COBROS=true` (or `false`), or for one tenant with `npm run tenant -- feature SLUG cobros on` (or `off`; `default` follows the variable again); `GET /api/v1/tenant` shows a tenant’s effective switches.
     *
     *     Accept: text/plain answers the report laid out for an 80 mm receipt printer (42 characters a line); otherwise JSON. Reading an X writes nothing.
     */
    get: operations['CajasController_report_v1'];
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/api/v1/sesiones-caja/{id}/movimientos': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    /**
     * [switchable, on by default] Put cash in (ingreso) or take it out (retiro) of an open session, with its reason
     * @description Switchable feature `cobros`, on by default on this instance (`FEATURE_COBROS=true`). While it is off for a tenant, this route answers 404 `NOT_FOUND` exactly like a route that does not exist. Switch it for every tenant with `FEATURE_COBROS=true` (or `false`), or for one tenant with `npm run tenant -- feature SLUG cobros on` (or `off`; `default` follows the variable again); `GET /api/v1/tenant` shows a tenant’s effective switches.
     */
    post: operations['CajasController_movement_v1'];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/api/v1/sesiones-caja/{id}/cerrar': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    /**
     * [switchable, on by default] Close a session with the count: the Z
     * @description Switchable feature `cobros`, on by default on this instance (`FEATURE_COBROS=true`). While it is off for a tenant, this route answers 404 `NOT_FOUND` exactly like a route that does not exist. Switch it for every tenant with `FEATURE_COBROS=true` (or `false`), or for one tenant with `npm run tenant -- feature SLUG cobros on` (or `off`; `default` follows the variable again); `GET /api/v1/tenant` shows a tenant’s effective switches.
     *
     *     Per method: expected, counted and the difference (recorded, not refused; beyond the tolerance only with caja:approve-difference). The till’s next Z number (gapless). Refused while a comanda paid in the session is abierta. A closed session never changes.
     */
    post: operations['CajasController_close_v1'];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/api/v1/cobros/ajustes': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /**
     * [switchable, on by default] The money settings: IGV rates by date, service charge, cash rounding, tolerance
     * @description Switchable feature `cobros`, on by default on this instance (`FEATURE_COBROS=true`). While it is off for a tenant, this route answers 404 `NOT_FOUND` exactly like a route that does not exist. Switch it for every tenant with `FEATURE_COBROS=true` (or `false`), or for one tenant with `npm run tenant -- feature SLUG cobros on` (or `off`; `default` follows the variable again); `GET /api/v1/tenant` shows a tenant’s effective switches.
     */
    get: operations['CajasController_settings_v1'];
    /**
     * [switchable, on by default] Change the money settings (fields not sent stay; tasas_igv replaces the list)
     * @description Switchable feature `cobros`, on by default on this instance (`FEATURE_COBROS=true`). While it is off for a tenant, this route answers 404 `NOT_FOUND` exactly like a route that does not exist. Switch it for every tenant with `FEATURE_COBROS=true` (or `false`), or for one tenant with `npm run tenant -- feature SLUG cobros on` (or `off`; `default` follows the variable again); `GET /api/v1/tenant` shows a tenant’s effective switches.
     *
     *     A comanda already closed keeps the rates frozen at its close; an open one follows the new ones.
     */
    put: operations['CajasController_saveSettings_v1'];
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/api/v1/inventario': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /**
     * [switchable, on by default] Every raw material’s stock, average cost and value, with its flags
     * @description Switchable feature `inventario`, on by default on this instance (`FEATURE_INVENTARIO=true`). While it is off for a tenant, this route answers 404 `NOT_FOUND` exactly like a route that does not exist. Switch it for every tenant with `FEATURE_INVENTARIO=true` (or `false`), or for one tenant with `npm run tenant -- feature SLUG inventario on` (or `off`; `default` follows the variable again); `GET /api/v1/tenant` shows a tenant’s effective switches.
     *
     *     negativo: below zero (a sale never waits for stock); bajo_minimo: below mate_primas.stock_minimo.
     */
    get: operations['InventarioController_saldos_v1'];
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/api/v1/inventario/materiales': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /**
     * [switchable, on by default] The raw materials by name, to record waste of one (no stock, no cost)
     * @description Switchable feature `inventario`, on by default on this instance (`FEATURE_INVENTARIO=true`). While it is off for a tenant, this route answers 404 `NOT_FOUND` exactly like a route that does not exist. Switch it for every tenant with `FEATURE_INVENTARIO=true` (or `false`), or for one tenant with `npm run tenant -- feature SLUG inventario on` (or `off`; `default` follows the variable again); `GET /api/v1/tenant` shows a tenant’s effective switches.
     *
     *     For whoever records waste (inventario:waste): the kitchen picks the material by its name without reading the stock or its value.
     */
    get: operations['InventarioController_materiales_v1'];
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/api/v1/inventario/movimientos': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /**
     * [switchable, on by default] The ledger’s movements, newest first
     * @description Switchable feature `inventario`, on by default on this instance (`FEATURE_INVENTARIO=true`). While it is off for a tenant, this route answers 404 `NOT_FOUND` exactly like a route that does not exist. Switch it for every tenant with `FEATURE_INVENTARIO=true` (or `false`), or for one tenant with `npm run tenant -- feature SLUG inventario on` (or `off`; `default` follows the variable again); `GET /api/v1/tenant` shows a tenant’s effective switches.
     *
     *     Filters: a material, a tipo, a period (after desde, up to hasta). The total count is in X-Total-Count.
     */
    get: operations['InventarioController_movimientos_v1'];
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/api/v1/inventario/mermas': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    /**
     * [switchable, on by default] Record waste: a quantity of a material lost, and why
     * @description Switchable feature `inventario`, on by default on this instance (`FEATURE_INVENTARIO=true`). While it is off for a tenant, this route answers 404 `NOT_FOUND` exactly like a route that does not exist. Switch it for every tenant with `FEATURE_INVENTARIO=true` (or `false`), or for one tenant with `npm run tenant -- feature SLUG inventario on` (or `off`; `default` follows the variable again); `GET /api/v1/tenant` shows a tenant’s effective switches.
     *
     *     Posts a merma movement at the average cost (stock may go negative). Dated at or before the last applied count’s cut-off: 409 PERIODO_CERRADO.
     */
    post: operations['InventarioController_merma_v1'];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/api/v1/inventario/conteos': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /**
     * [switchable, on by default] Count sheets, latest cut-off first
     * @description Switchable feature `inventario`, on by default on this instance (`FEATURE_INVENTARIO=true`). While it is off for a tenant, this route answers 404 `NOT_FOUND` exactly like a route that does not exist. Switch it for every tenant with `FEATURE_INVENTARIO=true` (or `false`), or for one tenant with `npm run tenant -- feature SLUG inventario on` (or `off`; `default` follows the variable again); `GET /api/v1/tenant` shows a tenant’s effective switches.
     *
     *     The total count is in X-Total-Count.
     */
    get: operations['InventarioController_conteos_v1'];
    put?: never;
    /**
     * [switchable, on by default] Start a count sheet (a draft) with what was counted
     * @description Switchable feature `inventario`, on by default on this instance (`FEATURE_INVENTARIO=true`). While it is off for a tenant, this route answers 404 `NOT_FOUND` exactly like a route that does not exist. Switch it for every tenant with `FEATURE_INVENTARIO=true` (or `false`), or for one tenant with `npm run tenant -- feature SLUG inventario on` (or `off`; `default` follows the variable again); `GET /api/v1/tenant` shows a tenant’s effective switches.
     *
     *     Its lines show the ledger’s quantity at the cut-off and the difference; nothing is posted until it is applied.
     */
    post: operations['InventarioController_createConteo_v1'];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/api/v1/inventario/conteos/{id}': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /**
     * [switchable, on by default] A count sheet with its lines, differences and acciones
     * @description Switchable feature `inventario`, on by default on this instance (`FEATURE_INVENTARIO=true`). While it is off for a tenant, this route answers 404 `NOT_FOUND` exactly like a route that does not exist. Switch it for every tenant with `FEATURE_INVENTARIO=true` (or `false`), or for one tenant with `npm run tenant -- feature SLUG inventario on` (or `off`; `default` follows the variable again); `GET /api/v1/tenant` shows a tenant’s effective switches.
     */
    get: operations['InventarioController_conteo_v1'];
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    /**
     * [switchable, on by default] Change a draft’s lines (set, or take off with contado null) or its note
     * @description Switchable feature `inventario`, on by default on this instance (`FEATURE_INVENTARIO=true`). While it is off for a tenant, this route answers 404 `NOT_FOUND` exactly like a route that does not exist. Switch it for every tenant with `FEATURE_INVENTARIO=true` (or `false`), or for one tenant with `npm run tenant -- feature SLUG inventario on` (or `off`; `default` follows the variable again); `GET /api/v1/tenant` shows a tenant’s effective switches.
     */
    patch: operations['InventarioController_updateConteo_v1'];
    trace?: never;
  };
  '/api/v1/inventario/conteos/{id}/aplicar': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    /**
     * [switchable, on by default] Apply a draft: post contado − sistema of each line at its cut-off, and close the period there
     * @description Switchable feature `inventario`, on by default on this instance (`FEATURE_INVENTARIO=true`). While it is off for a tenant, this route answers 404 `NOT_FOUND` exactly like a route that does not exist. Switch it for every tenant with `FEATURE_INVENTARIO=true` (or `false`), or for one tenant with `npm run tenant -- feature SLUG inventario on` (or `off`; `default` follows the variable again); `GET /api/v1/tenant` shows a tenant’s effective switches.
     *
     *     Once: a second apply is 409 CONTEO_NO_BORRADOR. A cut-off at or before the last applied one: 409 PERIODO_CERRADO.
     */
    post: operations['InventarioController_applyConteo_v1'];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/api/v1/inventario/conteos/{id}/descartar': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    /**
     * [switchable, on by default] Discard a draft (nothing is posted)
     * @description Switchable feature `inventario`, on by default on this instance (`FEATURE_INVENTARIO=true`). While it is off for a tenant, this route answers 404 `NOT_FOUND` exactly like a route that does not exist. Switch it for every tenant with `FEATURE_INVENTARIO=true` (or `false`), or for one tenant with `npm run tenant -- feature SLUG inventario on` (or `off`; `default` follows the variable again); `GET /api/v1/tenant` shows a tenant’s effective switches.
     */
    post: operations['InventarioController_discardConteo_v1'];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/api/v1/inventario/consumo': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /**
     * [switchable, on by default] Theoretical against actual usage per material, waste, variance and food cost % of a period
     * @description Switchable feature `inventario`, on by default on this instance (`FEATURE_INVENTARIO=true`). While it is off for a tenant, this route answers 404 `NOT_FOUND` exactly like a route that does not exist. Switch it for every tenant with `FEATURE_INVENTARIO=true` (or `false`), or for one tenant with `npm run tenant -- feature SLUG inventario on` (or `off`; `default` follows the variable again); `GET /api/v1/tenant` shows a tenant’s effective switches.
     *
     *     Theoretical: the recipes of the comandas closed (net of reopened ones); actual: stock at desde + purchases − stock at hasta. Food cost % on the period’s net sales (without IGV and recargo).
     */
    get: operations['InventarioController_consumo_v1'];
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/api/v1/productos/{id}/costo': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /**
     * [switchable, on by default] A dish’s recipe cost at today’s average costs, and its theoretical food cost %
     * @description Switchable feature `inventario`, on by default on this instance (`FEATURE_INVENTARIO=true`). While it is off for a tenant, this route answers 404 `NOT_FOUND` exactly like a route that does not exist. Switch it for every tenant with `FEATURE_INVENTARIO=true` (or `false`), or for one tenant with `npm run tenant -- feature SLUG inventario on` (or `off`; `default` follows the variable again); `GET /api/v1/tenant` shows a tenant’s effective switches.
     */
    get: operations['InventarioController_productoCosto_v1'];
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/api/v1/cocina/stream': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /**
     * [switchable, on by default] Live kitchen events of a station (Server-Sent Events)
     * @description Switchable feature `cocina`, on by default on this instance (`FEATURE_COCINA=true`). While it is off for a tenant, this route answers 404 `NOT_FOUND` exactly like a route that does not exist. Switch it for every tenant with `FEATURE_COCINA=true` (or `false`), or for one tenant with `npm run tenant -- feature SLUG cocina on` (or `off`; `default` follows the variable again); `GET /api/v1/tenant` shows a tenant’s effective switches.
     *
     *     One `event: cocina` per audit entry that concerns the station: the kitchen actions (enviar, disparar, preparar, listo, recuperar, entregar) touching its tickets, and transferir, dividir, unir, quitar_item, modificar_item, eliminar of comandas it has tickets of. `data:` is the comanda stream’s event with `envios` (the ticket ids it changed; refetch them) and `estaciones`. Last-Event-ID resumes; a heartbeat every 15 s. The shares and the end of a session are those of the comanda stream.
     */
    get: operations['CocinaStreamController_stream_v1'];
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/api/v1/cocina/estaciones': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /**
     * [switchable, on by default] The kitchen’s stations, with their categories
     * @description Switchable feature `cocina`, on by default on this instance (`FEATURE_COCINA=true`). While it is off for a tenant, this route answers 404 `NOT_FOUND` exactly like a route that does not exist. Switch it for every tenant with `FEATURE_COCINA=true` (or `false`), or for one tenant with `npm run tenant -- feature SLUG cocina on` (or `off`; `default` follows the variable again); `GET /api/v1/tenant` shows a tenant’s effective switches.
     */
    get: operations['CocinaController_estaciones_v1'];
    put?: never;
    /**
     * [switchable, on by default] Create a station
     * @description Switchable feature `cocina`, on by default on this instance (`FEATURE_COCINA=true`). While it is off for a tenant, this route answers 404 `NOT_FOUND` exactly like a route that does not exist. Switch it for every tenant with `FEATURE_COCINA=true` (or `false`), or for one tenant with `npm run tenant -- feature SLUG cocina on` (or `off`; `default` follows the variable again); `GET /api/v1/tenant` shows a tenant’s effective switches.
     */
    post: operations['CocinaController_createEstacion_v1'];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/api/v1/cocina/estaciones/{id}': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    /**
     * [switchable, on by default] Rename a station, change its alert thresholds, (de)activate it
     * @description Switchable feature `cocina`, on by default on this instance (`FEATURE_COCINA=true`). While it is off for a tenant, this route answers 404 `NOT_FOUND` exactly like a route that does not exist. Switch it for every tenant with `FEATURE_COCINA=true` (or `false`), or for one tenant with `npm run tenant -- feature SLUG cocina on` (or `off`; `default` follows the variable again); `GET /api/v1/tenant` shows a tenant’s effective switches.
     */
    patch: operations['CocinaController_updateEstacion_v1'];
    trace?: never;
  };
  '/api/v1/cocina/estaciones/{id}/categorias': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    /**
     * [switchable, on by default] The categories a station prepares (replaces its set; a category moves from another station)
     * @description Switchable feature `cocina`, on by default on this instance (`FEATURE_COCINA=true`). While it is off for a tenant, this route answers 404 `NOT_FOUND` exactly like a route that does not exist. Switch it for every tenant with `FEATURE_COCINA=true` (or `false`), or for one tenant with `npm run tenant -- feature SLUG cocina on` (or `off`; `default` follows the variable again); `GET /api/v1/tenant` shows a tenant’s effective switches.
     */
    put: operations['CocinaController_setCategorias_v1'];
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/api/v1/cocina/envios': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /**
     * [switchable, on by default] Kitchen tickets of a station (an expo station: every station’s)
     * @description Switchable feature `cocina`, on by default on this instance (`FEATURE_COCINA=true`). While it is off for a tenant, this route answers 404 `NOT_FOUND` exactly like a route that does not exist. Switch it for every tenant with `FEATURE_COCINA=true` (or `false`), or for one tenant with `npm run tenant -- feature SLUG cocina on` (or `off`; `default` follows the variable again); `GET /api/v1/tenant` shows a tenant’s effective switches.
     *
     *     The total count is in X-Total-Count.
     */
    get: operations['CocinaController_envios_v1'];
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/api/v1/cocina/envios/{id}/preparar': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    /**
     * [switchable, on by default] Start a ticket: pendiente → en_preparacion (its lines too)
     * @description Switchable feature `cocina`, on by default on this instance (`FEATURE_COCINA=true`). While it is off for a tenant, this route answers 404 `NOT_FOUND` exactly like a route that does not exist. Switch it for every tenant with `FEATURE_COCINA=true` (or `false`), or for one tenant with `npm run tenant -- feature SLUG cocina on` (or `off`; `default` follows the variable again); `GET /api/v1/tenant` shows a tenant’s effective switches.
     */
    post: operations['CocinaController_preparar_v1'];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/api/v1/cocina/envios/{id}/listo': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    /**
     * [switchable, on by default] Bump a ticket: listo; each of its lines is listo once all the tickets that sent it are
     * @description Switchable feature `cocina`, on by default on this instance (`FEATURE_COCINA=true`). While it is off for a tenant, this route answers 404 `NOT_FOUND` exactly like a route that does not exist. Switch it for every tenant with `FEATURE_COCINA=true` (or `false`), or for one tenant with `npm run tenant -- feature SLUG cocina on` (or `off`; `default` follows the variable again); `GET /api/v1/tenant` shows a tenant’s effective switches.
     */
    post: operations['CocinaController_listo_v1'];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/api/v1/cocina/envios/{id}/recuperar': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    /**
     * [switchable, on by default] Recall a bumped ticket: pendiente again, its listo lines enviado (409 if one was served)
     * @description Switchable feature `cocina`, on by default on this instance (`FEATURE_COCINA=true`). While it is off for a tenant, this route answers 404 `NOT_FOUND` exactly like a route that does not exist. Switch it for every tenant with `FEATURE_COCINA=true` (or `false`), or for one tenant with `npm run tenant -- feature SLUG cocina on` (or `off`; `default` follows the variable again); `GET /api/v1/tenant` shows a tenant’s effective switches.
     */
    post: operations['CocinaController_recuperar_v1'];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/api/v1/comandas/{id}/enviar': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    /**
     * [switchable, on by default] Send to the kitchen what changed in the fired courses (course 1 fires at the first send)
     * @description Switchable feature `cocina`, on by default on this instance (`FEATURE_COCINA=true`). While it is off for a tenant, this route answers 404 `NOT_FOUND` exactly like a route that does not exist. Switch it for every tenant with `FEATURE_COCINA=true` (or `false`), or for one tenant with `npm run tenant -- feature SLUG cocina on` (or `off`; `default` follows the variable again); `GET /api/v1/tenant` shows a tenant’s effective switches.
     *
     *     For each line of a fired course, its quantity now less what was sent: more is a nuevo or adicional ticket line, less an anulacion; one ticket per station, course and kind. Nothing new: {envios: []} and no change (no version, no audit entry).
     */
    post: operations['CocinaComandasController_enviar_v1'];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/api/v1/comandas/{id}/cursos/{n}/disparar': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    /**
     * [switchable, on by default] Fire a course and send what is pending in the fired courses
     * @description Switchable feature `cocina`, on by default on this instance (`FEATURE_COCINA=true`). While it is off for a tenant, this route answers 404 `NOT_FOUND` exactly like a route that does not exist. Switch it for every tenant with `FEATURE_COCINA=true` (or `false`), or for one tenant with `npm run tenant -- feature SLUG cocina on` (or `off`; `default` follows the variable again); `GET /api/v1/tenant` shows a tenant’s effective switches.
     *
     *     409 CURSO_YA_DISPARADO when it was fired already.
     */
    post: operations['CocinaComandasController_disparar_v1'];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/api/v1/comandas/{id}/items/{itemId}/entregar': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    /**
     * [switchable, on by default] Serve a line that is listo: entregado
     * @description Switchable feature `cocina`, on by default on this instance (`FEATURE_COCINA=true`). While it is off for a tenant, this route answers 404 `NOT_FOUND` exactly like a route that does not exist. Switch it for every tenant with `FEATURE_COCINA=true` (or `false`), or for one tenant with `npm run tenant -- feature SLUG cocina on` (or `off`; `default` follows the variable again); `GET /api/v1/tenant` shows a tenant’s effective switches.
     */
    post: operations['CocinaComandasController_entregar_v1'];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/api/v1/reportes/ventas': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /**
     * [switchable, on by default] Sales of a range of local days, grouped by period, product, waiter, table or method
     * @description Switchable feature `reportes`, on by default on this instance (`FEATURE_REPORTES=true`). While it is off for a tenant, this route answers 404 `NOT_FOUND` exactly like a route that does not exist. Switch it for every tenant with `FEATURE_REPORTES=true` (or `false`), or for one tenant with `npm run tenant -- feature SLUG reportes on` (or `off`; `default` follows the variable again); `GET /api/v1/tenant` shows a tenant’s effective switches.
     *
     *     The comandas closed (not voided) between desde 00:00 and hasta 24:00 in the tenant’s time zone. Time groupings list every bucket of the range (zeros included) in time order; the others are ordered by venta_bruta. totales counts each comanda once. With the feature inventario, costo_teorico and food_cost too; agrupar=metodo needs the feature cobros (400 REPORTE_REQUIERE_COBROS).
     */
    get: operations['ReportesController_ventas_v1'];
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/api/v1/reportes/gastos': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /**
     * [switchable, on by default] Sales against purchases per local month of a range of days
     * @description Switchable feature `reportes`, on by default on this instance (`FEATURE_REPORTES=true`). While it is off for a tenant, this route answers 404 `NOT_FOUND` exactly like a route that does not exist. Switch it for every tenant with `FEATURE_REPORTES=true` (or `false`), or for one tenant with `npm run tenant -- feature SLUG reportes on` (or `off`; `default` follows the variable again); `GET /api/v1/tenant` shows a tenant’s effective switches.
     *
     *     Per month the range touches: the closed, not voided comandas and their total (by fec_cierre), and the purchases’ total (by fec_compra), within the range’s days in the tenant’s time zone.
     */
    get: operations['ReportesController_gastos_v1'];
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/api/v1/reportes/asistencia': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /**
     * [switchable, on by default] Days and hours worked per person over a range of work days
     * @description Switchable feature `reportes`, on by default on this instance (`FEATURE_REPORTES=true`). While it is off for a tenant, this route answers 404 `NOT_FOUND` exactly like a route that does not exist. Switch it for every tenant with `FEATURE_REPORTES=true` (or `false`), or for one tenant with `npm run tenant -- feature SLUG reportes on` (or `off`; `default` follows the variable again); `GET /api/v1/tenant` shows a tenant’s effective switches.
     *
     *     From the attendance’s daily summaries (the report_asistencia store function): days with punches, minutes of the closed intervals, hours, and days left incomplete.
     */
    get: operations['ReportesController_asistencia_v1'];
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/api/v1/webhooks': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /**
     * [switchable, on by default] The endpoints, oldest first (never their secrets)
     * @description Switchable feature `webhooks`, on by default on this instance (`FEATURE_WEBHOOKS=true`). While it is off for a tenant, this route answers 404 `NOT_FOUND` exactly like a route that does not exist. Switch it for every tenant with `FEATURE_WEBHOOKS=true` (or `false`), or for one tenant with `npm run tenant -- feature SLUG webhooks on` (or `off`; `default` follows the variable again); `GET /api/v1/tenant` shows a tenant’s effective switches.
     */
    get: operations['WebhooksController_list_v1'];
    put?: never;
    /**
     * [switchable, on by default] Add an endpoint: answers its signing secret, this once
     * @description Switchable feature `webhooks`, on by default on this instance (`FEATURE_WEBHOOKS=true`). While it is off for a tenant, this route answers 404 `NOT_FOUND` exactly like a route that does not exist. Switch it for every tenant with `FEATURE_WEBHOOKS=true` (or `false`), or for one tenant with `npm run tenant -- feature SLUG webhooks on` (or `off`; `default` follows the variable again); `GET /api/v1/tenant` shows a tenant’s effective switches.
     *
     *     The URL is checked where it points (https in production; no private, loopback or link-local address, resolved). The secret (whsec_…) signs every message; store it now.
     */
    post: operations['WebhooksController_create_v1'];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/api/v1/webhooks/{id}': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /**
     * [switchable, on by default] An endpoint
     * @description Switchable feature `webhooks`, on by default on this instance (`FEATURE_WEBHOOKS=true`). While it is off for a tenant, this route answers 404 `NOT_FOUND` exactly like a route that does not exist. Switch it for every tenant with `FEATURE_WEBHOOKS=true` (or `false`), or for one tenant with `npm run tenant -- feature SLUG webhooks on` (or `off`; `default` follows the variable again); `GET /api/v1/tenant` shows a tenant’s effective switches.
     */
    get: operations['WebhooksController_get_v1'];
    put?: never;
    post?: never;
    /**
     * [switchable, on by default] Remove an endpoint, with its messages and their attempts
     * @description Switchable feature `webhooks`, on by default on this instance (`FEATURE_WEBHOOKS=true`). While it is off for a tenant, this route answers 404 `NOT_FOUND` exactly like a route that does not exist. Switch it for every tenant with `FEATURE_WEBHOOKS=true` (or `false`), or for one tenant with `npm run tenant -- feature SLUG webhooks on` (or `off`; `default` follows the variable again); `GET /api/v1/tenant` shows a tenant’s effective switches.
     */
    delete: operations['WebhooksController_remove_v1'];
    options?: never;
    head?: never;
    /**
     * [switchable, on by default] Change an endpoint: its URL, events, description, or switch it on or off
     * @description Switchable feature `webhooks`, on by default on this instance (`FEATURE_WEBHOOKS=true`). While it is off for a tenant, this route answers 404 `NOT_FOUND` exactly like a route that does not exist. Switch it for every tenant with `FEATURE_WEBHOOKS=true` (or `false`), or for one tenant with `npm run tenant -- feature SLUG webhooks on` (or `off`; `default` follows the variable again); `GET /api/v1/tenant` shows a tenant’s effective switches.
     *
     *     Switching it on clears its failure record and the reason the service switched it off; its pending messages are sent again.
     */
    patch: operations['WebhooksController_update_v1'];
    trace?: never;
  };
  '/api/v1/webhooks/{id}/rotar': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    /**
     * [switchable, on by default] A new signing secret; the previous one also signs for 24 hours
     * @description Switchable feature `webhooks`, on by default on this instance (`FEATURE_WEBHOOKS=true`). While it is off for a tenant, this route answers 404 `NOT_FOUND` exactly like a route that does not exist. Switch it for every tenant with `FEATURE_WEBHOOKS=true` (or `false`), or for one tenant with `npm run tenant -- feature SLUG webhooks on` (or `off`; `default` follows the variable again); `GET /api/v1/tenant` shows a tenant’s effective switches.
     *
     *     Until secreto_anterior_hasta, webhook-signature carries two signatures (one per secret), so a receiver can switch secrets without losing a message.
     */
    post: operations['WebhooksController_rotate_v1'];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/api/v1/webhooks/{id}/probar': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    /**
     * [switchable, on by default] Send a webhook.prueba message now
     * @description Switchable feature `webhooks`, on by default on this instance (`FEATURE_WEBHOOKS=true`). While it is off for a tenant, this route answers 404 `NOT_FOUND` exactly like a route that does not exist. Switch it for every tenant with `FEATURE_WEBHOOKS=true` (or `false`), or for one tenant with `npm run tenant -- feature SLUG webhooks on` (or `off`; `default` follows the variable again); `GET /api/v1/tenant` shows a tenant’s effective switches.
     *
     *     Queued like any message: follow it in GET /webhooks/{id}/entregas.
     */
    post: operations['WebhooksController_test_v1'];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/api/v1/webhooks/{id}/entregas': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /**
     * [switchable, on by default] An endpoint’s messages, newest first, with their attempts
     * @description Switchable feature `webhooks`, on by default on this instance (`FEATURE_WEBHOOKS=true`). While it is off for a tenant, this route answers 404 `NOT_FOUND` exactly like a route that does not exist. Switch it for every tenant with `FEATURE_WEBHOOKS=true` (or `false`), or for one tenant with `npm run tenant -- feature SLUG webhooks on` (or `off`; `default` follows the variable again); `GET /api/v1/tenant` shows a tenant’s effective switches.
     *
     *     The total count is in X-Total-Count. Messages are kept 30 days.
     */
    get: operations['WebhooksController_entregas_v1'];
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/api/v1/webhooks/entregas/{id}/reenviar': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    /**
     * [switchable, on by default] Send a message again, now (same webhook-id, its retries from the start)
     * @description Switchable feature `webhooks`, on by default on this instance (`FEATURE_WEBHOOKS=true`). While it is off for a tenant, this route answers 404 `NOT_FOUND` exactly like a route that does not exist. Switch it for every tenant with `FEATURE_WEBHOOKS=true` (or `false`), or for one tenant with `npm run tenant -- feature SLUG webhooks on` (or `off`; `default` follows the variable again); `GET /api/v1/tenant` shows a tenant’s effective switches.
     */
    post: operations['WebhooksController_resend_v1'];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
}
export type webhooks = Record<string, never>;
export interface components {
  schemas: {
    CurrentTenantDto: {
      /** @example demo */
      slug: string;
      /** @example Cevichería Demo */
      name: string;
      /**
       * @description Always active here: a suspended or provisioning tenant is refused first
       * @enum {string}
       */
      status: 'active';
      /** @example America/Lima */
      timeZone: string;
      /** @description Effective switches: the tenant override, else the global FEATURE_* variable */
      features: {
        /** @description Table reservations (docs/reservas.md) */
        reservas: boolean;
        /** @description Schema-driven reading and inserting over an allow-list of tables (docs/generic-tables.md) */
        genericTables: boolean;
        /** @description Business operations over store functions: recipes, purchases, attendance, reports (docs/rpc.md) */
        rpc: boolean;
        /** @description Payments, tills and the day's close (docs/cobros.md) */
        cobros: boolean;
        /** @description Stock from recipes: purchases in, sales out, waste, counts, food cost (docs/inventario.md) */
        inventario: boolean;
        /** @description The kitchen: courses, tickets per station as deltas, bump and recall, the kitchen stream (docs/cocina.md) */
        cocina: boolean;
        /** @description Reports: sales by period, product, waiter, table and payment method, expenses against sales, hours worked; CSV (docs/reportes.md) */
        reportes: boolean;
        /** @description Outbound webhooks: signed, at-least-once messages of the changes to endpoints of the tenant (docs/webhooks.md) */
        webhooks: boolean;
      };
    };
    MeDto: {
      /**
       * @description The token’s user; null without authentication
       * @example 4
       */
      id_usuario: number | null;
      /** @example Rosa Quispe */
      nombre: string | null;
      /**
       * @description Roles held (usua_roles)
       * @example [
       *       "mozo"
       *     ]
       */
      roles: string[];
      /**
       * @description What the roles give (docs/security.md); every permission without authentication. The permissions of a feature switched off for the tenant are not listed.
       * @example [
       *       "comandas:read",
       *       "comandas:write"
       *     ]
       */
      permissions: string[];
    };
    DatabaseHealth: {
      /** @enum {string} */
      status: 'up' | 'down';
      /** @description Round trip of SELECT 1 on the control database, in milliseconds (when up) */
      latencyMs?: number;
    };
    ConnectionsHealth: {
      /** @description The most PostgreSQL connections this instance may open, whatever the number of tenants: CONTROL_POOL_MAX + TENANT_DATASOURCE_MAX × (TENANT_POOL_MAX + 1) */
      budget: number;
      /** @description LISTEN connections of the live streams open now (one per tenant with subscribers) */
      listeners: number;
      /** @description Live streams (GET /comandas/stream) open now */
      streams: number;
    };
    HealthReport: {
      /**
       * @description degraded: some tenant databases do not answer (the others are served)
       * @enum {string}
       */
      status: 'ok' | 'degraded' | 'unavailable';
      database: components['schemas']['DatabaseHealth'];
      /** @description Whether the service runs on its embedded PostgreSQL */
      embeddedDatabase: boolean;
      /** @description Tenant DataSources open right now */
      tenantDataSources: number;
      /** @description Tenants whose database does not answer (of those in use since the start), e.g. during an outage */
      tenantsDown: string[];
      connections: components['schemas']['ConnectionsHealth'];
      /** @description Seconds since the process started */
      uptimeSeconds: number;
    };
    HealthUnavailableReport: {
      /**
       * @description degraded: some tenant databases do not answer (the others are served)
       * @enum {string}
       */
      status: 'ok' | 'degraded' | 'unavailable';
      database: components['schemas']['DatabaseHealth'];
      /** @description Whether the service runs on its embedded PostgreSQL */
      embeddedDatabase: boolean;
      /** @description Tenant DataSources open right now */
      tenantDataSources: number;
      /** @description Tenants whose database does not answer (of those in use since the start), e.g. during an outage */
      tenantsDown: string[];
      connections: components['schemas']['ConnectionsHealth'];
      /** @description Seconds since the process started */
      uptimeSeconds: number;
      /** @example The control database does not answer */
      error: string;
      /** @enum {string} */
      code: 'DATABASE_UNAVAILABLE';
    };
    ComandaSummary: {
      /** @example 301 */
      id_comanda: number;
      /**
       * @description Ticket number printed for the customer
       * @example 301
       */
      numero_ticket: number;
      /**
       * @description null = take-away
       * @example 3
       */
      id_mesa: number | null;
      /**
       * @description Table number
       * @example 3
       */
      mesa: number | null;
      /** @example 4 */
      id_usuario: number | null;
      /**
       * @description Waiter
       * @example Rosa Quispe
       */
      mozo: string | null;
      /** @example null */
      id_cliente: number | null;
      /** @example null */
      cliente: string | null;
      /** @enum {string} */
      estado: 'abierta' | 'cerrada';
      /** @example 2026-11-22T13:05:09-05:00 */
      fec_apertura: string;
      /** @example null */
      fec_cierre: string | null;
      /**
       * @description Sum of the line subtotals
       * @example 64.5
       */
      total: number;
      /**
       * @description Number of lines
       * @example 3
       */
      n_items: number;
      /**
       * @deprecated
       * @description Deprecated: the same count as n_items, removed in the next release
       * @example 3
       */
      items: number;
      /** @example false */
      eliminada: boolean;
      /**
       * @description Optimistic-concurrency version (the ETag)
       * @example 2
       */
      version: number;
      /**
       * @description What the caller may do to this comanda now: the actions its state allows (abierta, cerrada, eliminada) that the caller’s roles give the permission of (every action the state allows with AUTH_MODE=off). Named as the routes and the audit trail name them, in a fixed order (abrir, cerrar, restaurar, editar, eliminar, agregar_item, modificar_item, quitar_item, dividir, unir, transferir). A screen shows the buttons listed; a rule beyond the state can still refuse one (cerrar an empty comanda: 409 COMANDA_EMPTY).
       * @example [
       *       "cerrar",
       *       "dividir",
       *       "unir",
       *       "transferir"
       *     ]
       */
      acciones: (
        | 'abrir'
        | 'cerrar'
        | 'restaurar'
        | 'editar'
        | 'eliminar'
        | 'agregar_item'
        | 'modificar_item'
        | 'quitar_item'
        | 'dividir'
        | 'unir'
        | 'transferir'
        | 'pagar'
        | 'anular_pago'
        | 'descontar'
        | 'reembolsar'
        | 'enviar'
        | 'disparar'
        | 'entregar'
        | 'preparar'
        | 'listo'
        | 'recuperar'
      )[];
    };
    ComandaStreamEvent: {
      /**
       * @description The audit entry (also the event id)
       * @example 5012
       */
      id_evento: number;
      /** @example 301 */
      id_comanda: number;
      /** @enum {string} */
      accion:
        | 'crear'
        | 'abrir'
        | 'cerrar'
        | 'restaurar'
        | 'editar'
        | 'eliminar'
        | 'agregar_item'
        | 'modificar_item'
        | 'quitar_item'
        | 'dividir'
        | 'unir'
        | 'transferir'
        | 'pagar'
        | 'anular_pago'
        | 'descontar'
        | 'reembolsar'
        | 'enviar'
        | 'disparar'
        | 'entregar'
        | 'preparar'
        | 'listo'
        | 'recuperar';
      /**
       * @description Actor, when known
       * @example 4
       */
      id_usuario: number | null;
      /** @example Rosa Quispe */
      usuario: string | null;
      /** @example null */
      motivo: string | null;
      /** @example 2026-11-22T13:30:00-05:00 */
      fec_evento: string;
      /** @description The comanda as it is when the event is sent (its version is at least the entry’s) */
      comanda: components['schemas']['ComandaSummary'];
    };
    /** @description Every error: a message for people, a machine code (a name such as `COMANDA_NOT_FOUND` or a PostgreSQL SQLSTATE such as `23503`), an optional detail and the request id; some errors add fields of their own at the top level. */
    ErrorBody: {
      /** @description What went wrong, for people: in Spanish when the request’s Accept-Language prefers it, in English otherwise (Content-Language says which) */
      error: string;
      /** @description Machine code: a name (`VALIDATION_FAILED`) or a SQLSTATE (`23503`) */
      code: string;
      /** @description Depends on the code: the list of violations (`VALIDATION_FAILED`: one message per field), the database detail (constraint violations), or an object naming the values involved; null when the database gave none */
      detail?:
        | string[]
        | (string | null)
        | {
            [key: string]: unknown;
          };
      /** @description The request id, also in the X-Request-Id header and in the service log */
      requestId?: string;
    } & {
      [key: string]: unknown;
    };
    ItemInput: {
      /** @example 12 */
      id_producto: number;
      /**
       * @description Greater than 0, up to 3 decimals
       * @example 2
       */
      cantidad: number;
      /** @example sin ají */
      nota?: string | null;
      /**
       * @description Staff member adding the line (default: the waiter)
       * @example 4
       */
      id_usuario?: number;
      /**
       * @description Feature cocina: the course the line is served in (default: its category’s default course, else 1). Refused while cocina is off.
       * @example 2
       */
      curso?: number;
    };
    CreateComandaBody: {
      /**
       * @description Table; null = take-away
       * @example 3
       */
      id_mesa?: number | null;
      /**
       * @description Waiter
       * @example 4
       */
      id_usuario?: number | null;
      /**
       * @description Customer
       * @example null
       */
      id_cliente?: number | null;
      /** @example mesa junto a la ventana */
      observacion?: string | null;
      /** @description Lines ordered with the comanda */
      items?: components['schemas']['ItemInput'][];
    };
    ComandaItem: {
      /** @example 977 */
      id_item: number;
      /** @example 12 */
      id_producto: number;
      /** @example Ceviche clásico */
      producto: string;
      /** @example 2 */
      cantidad: number;
      /**
       * @description Price captured when ordered
       * @example 32
       */
      precio_unitario: number;
      /** @example 64 */
      subtotal: number;
      /** @example sin ají */
      nota: string | null;
      /**
       * @description Who added the line
       * @example 4
       */
      id_usuario: number | null;
      /** @example Rosa Quispe */
      usuario: string | null;
      /** @example 2026-11-22T13:06:00-05:00 */
      fec_registro: string;
      /**
       * @description Feature cocina: the course
       * @example 1
       */
      curso?: number;
      /**
       * @description Feature cocina: where the line stands in the kitchen
       * @example enviado
       * @enum {string}
       */
      estado_cocina?: 'pendiente' | 'enviado' | 'en_preparacion' | 'listo' | 'entregado';
      /**
       * @description Feature cocina: last sent
       * @example 2026-11-22T13:07:00-05:00
       */
      fec_enviado?: string | null;
      /**
       * @description Feature cocina: started
       * @example null
       */
      fec_preparacion?: string | null;
      /**
       * @description Feature cocina: ready
       * @example null
       */
      fec_listo?: string | null;
      /**
       * @description Feature cocina: served
       * @example null
       */
      fec_entregado?: string | null;
    };
    IgvDto: {
      /**
       * @description The rate (frozen when the comanda closed)
       * @example 0.18
       */
      tasa: number;
      /**
       * @description round(T / (1 + tasa), 2), T = total − recargo
       * @example 54.66
       */
      base: number;
      /**
       * @description T − base
       * @example 9.84
       */
      monto: number;
    };
    PagoDto: {
      /** @example 88 */
      id_pago: number;
      /** @example 1 */
      id_metodo_pago: number;
      /** @example Efectivo */
      metodo: string;
      /** @example efectivo */
      tipo: string;
      /**
       * @description Applied to the bill
       * @example 64.5
       */
      monto: number;
      /** @example 5 */
      propina: number;
      /**
       * @description Cash handed over (null: not cash)
       * @example 100
       */
      recibido: number | null;
      /**
       * @description Change: recibido − monto − propina
       * @example 30.5
       */
      vuelto: number;
      /** @example null */
      referencia: string | null;
      /** @enum {string} */
      estado: 'aplicado' | 'anulado';
      /**
       * @description Refunded of it so far
       * @example 0
       */
      reembolsado: number;
      /**
       * @description The till session that took it
       * @example 12
       */
      id_sesion: number;
      /** @example 1 */
      id_caja: number;
      /**
       * @description Who took it
       * @example 7
       */
      id_usuario: number | null;
      /** @example Carmen Rojas */
      usuario: string | null;
      /** @example 2026-11-22T14:02:11-05:00 */
      fec_pago: string;
      /** @example null */
      motivo_anulacion: string | null;
      /** @example null */
      fec_anulacion: string | null;
      /**
       * @description What the caller may do to it now: anular (DELETE …/pagos/{id_pago}, cobros:void) while it is aplicado, its comanda abierta and its session open; reembolsar (POST …/reembolsos, cobros:refund) while aplicado, not wholly refunded and its comanda cerrada
       * @example [
       *       "anular"
       *     ]
       */
      acciones: ('anular' | 'reembolsar')[];
    };
    ComandaDetail: {
      /** @example 301 */
      id_comanda: number;
      /**
       * @description Ticket number printed for the customer
       * @example 301
       */
      numero_ticket: number;
      /**
       * @description null = take-away
       * @example 3
       */
      id_mesa: number | null;
      /**
       * @description Table number
       * @example 3
       */
      mesa: number | null;
      /** @example 4 */
      id_usuario: number | null;
      /**
       * @description Waiter
       * @example Rosa Quispe
       */
      mozo: string | null;
      /** @example null */
      id_cliente: number | null;
      /** @example null */
      cliente: string | null;
      /** @enum {string} */
      estado: 'abierta' | 'cerrada';
      /** @example 2026-11-22T13:05:09-05:00 */
      fec_apertura: string;
      /** @example null */
      fec_cierre: string | null;
      /**
       * @description Sum of the line subtotals
       * @example 64.5
       */
      total: number;
      /**
       * @description Number of lines
       * @example 3
       */
      n_items: number;
      /**
       * @deprecated
       * @description Deprecated: the same count as n_items, removed in the next release
       * @example 3
       */
      items: number;
      /** @example false */
      eliminada: boolean;
      /**
       * @description Optimistic-concurrency version (the ETag)
       * @example 2
       */
      version: number;
      /**
       * @description What the caller may do to this comanda now: the actions its state allows (abierta, cerrada, eliminada) that the caller’s roles give the permission of (every action the state allows with AUTH_MODE=off). Named as the routes and the audit trail name them, in a fixed order (abrir, cerrar, restaurar, editar, eliminar, agregar_item, modificar_item, quitar_item, dividir, unir, transferir). A screen shows the buttons listed; a rule beyond the state can still refuse one (cerrar an empty comanda: 409 COMANDA_EMPTY).
       * @example [
       *       "cerrar",
       *       "dividir",
       *       "unir",
       *       "transferir"
       *     ]
       */
      acciones: (
        | 'abrir'
        | 'cerrar'
        | 'restaurar'
        | 'editar'
        | 'eliminar'
        | 'agregar_item'
        | 'modificar_item'
        | 'quitar_item'
        | 'dividir'
        | 'unir'
        | 'transferir'
        | 'pagar'
        | 'anular_pago'
        | 'descontar'
        | 'reembolsar'
        | 'enviar'
        | 'disparar'
        | 'entregar'
        | 'preparar'
        | 'listo'
        | 'recuperar'
      )[];
      /** @example null */
      observacion: string | null;
      /** @example null */
      fec_eliminacion: string | null;
      lineas: components['schemas']['ComandaItem'][];
      /**
       * @description Sum of the lines (cobros)
       * @example 64.5
       */
      subtotal?: number;
      /**
       * @description Discount amount (cobros)
       * @example 0
       */
      descuento?: number;
      /**
       * @description The discount as set: porcentaje or monto, null without one (cobros)
       * @enum {string|null}
       */
      descuento_tipo?: 'porcentaje' | 'monto' | null;
      /**
       * @description Its valor: a percentage or soles (cobros)
       * @example 10
       */
      descuento_valor?: number | null;
      /**
       * @description Why it was given (cobros)
       * @example cliente frecuente
       */
      descuento_motivo?: string | null;
      /**
       * @description Service charge: round((subtotal − descuento) × rate, 2), outside the IGV (cobros)
       * @example 0
       */
      recargo_consumo?: number;
      /** @description IGV included in the total (cobros) */
      igv?: components['schemas']['IgvDto'];
      /**
       * @description Cash rounding in the customer’s favour, `−0.10 < redondeo ≤ 0` (cobros)
       * @example -0.05
       */
      redondeo?: number;
      /**
       * @description Tips of the applied payments (cobros)
       * @example 5
       */
      propinas?: number;
      /**
       * @description Σ applied payments (cobros)
       * @example 64.5
       */
      pagado?: number;
      /**
       * @description Σ refunds (cobros)
       * @example 0
       */
      reembolsado?: number;
      /**
       * @description Still to pay: total + redondeo − pagado (cobros)
       * @example 0
       */
      saldo?: number;
      /**
       * @description What settles the balance in cash now: saldo rounded down to S/ 0.10 (cobros)
       * @example 0
       */
      saldo_efectivo?: number;
      /**
       * @description (cobros)
       * @enum {string}
       */
      estado_pago?: 'pendiente' | 'pagada' | 'reembolso_parcial' | 'reembolsada';
      /** @description The payments, applied and voided, oldest first (cobros) */
      pagos?: components['schemas']['PagoDto'][];
    };
    PagoInput: {
      /**
       * @description GET /metodos-pago
       * @example 1
       */
      id_metodo_pago: number;
      /**
       * @description What is applied to the bill (soles, 2 decimals). Not cash: at most the balance (409 PAGO_EXCEDE_SALDO). Cash: more than the balance settles it and the rest is change (vuelto); the balance is rounded down to S/ 0.10 when cash settles it.
       * @example 64.5
       */
      monto: number;
      /**
       * @description Tip, on top of monto; never part of the sale (default 0)
       * @example 5
       */
      propina?: number;
      /**
       * @description Cash only: what the customer handed over (default monto + propina); the change is recibido − monto applied − propina
       * @example 100
       */
      recibido?: number;
      /**
       * @description Voucher, operation number
       * @example VISA 4821 aut. 093311
       */
      referencia?: string;
      /**
       * @description The till whose open session takes the payment (default: the session the caller opened, else the only open one)
       * @example 1
       */
      id_caja?: number;
    };
    UpdateComandaBody: {
      /**
       * @description Table; null = take-away
       * @example 3
       */
      id_mesa?: number | null;
      /**
       * @description Waiter
       * @example 4
       */
      id_usuario?: number | null;
      /**
       * @description Customer
       * @example null
       */
      id_cliente?: number | null;
      /** @example mesa junto a la ventana */
      observacion?: string | null;
      /**
       * @description A transition; no other field with it
       * @enum {string}
       */
      action?: 'abrir' | 'cerrar' | 'restaurar';
      /** @description Reason kept in the audit trail */
      motivo?: string;
      /** @description With {"action":"cerrar"} and the feature cobros: payments applied before closing, in the same transaction (all or nothing). Refused while cobros is off. */
      pagos?: components['schemas']['PagoInput'][];
    };
    DeleteComandaBody: {
      /** @example cliente se retiró */
      motivo?: string;
    };
    ComandaEvento: {
      /** @example 591 */
      id_evento: number;
      /** @enum {string} */
      accion:
        | 'crear'
        | 'abrir'
        | 'cerrar'
        | 'restaurar'
        | 'editar'
        | 'eliminar'
        | 'agregar_item'
        | 'modificar_item'
        | 'quitar_item'
        | 'dividir'
        | 'unir'
        | 'transferir'
        | 'pagar'
        | 'anular_pago'
        | 'descontar'
        | 'reembolsar'
        | 'enviar'
        | 'disparar'
        | 'entregar'
        | 'preparar'
        | 'listo'
        | 'recuperar';
      /**
       * @description Actor, when known
       * @example null
       */
      id_usuario: number | null;
      /** @example null */
      usuario: string | null;
      /** @example cliente se retiró */
      motivo: string | null;
      /**
       * @example {
       *       "estado": "abierta",
       *       "total": 64
       *     }
       */
      antes: Record<string, never> | null;
      /**
       * @example {
       *       "estado": "cerrada",
       *       "total": 64
       *     }
       */
      despues: Record<string, never> | null;
      /** @example 2026-11-22T13:30:00-05:00 */
      fec_evento: string;
    };
    ItemChange: {
      /** @example 3 */
      cantidad?: number;
      /** @example bien cocido */
      nota?: string | null;
    };
    SplitLine: {
      /**
       * @description A line of the comanda
       * @example 12
       */
      id_item: number;
      /**
       * @description How much of the line moves: all of it moves the line, less splits it in two
       * @example 1
       */
      cantidad: number;
    };
    SplitComandaBody: {
      lineas: components['schemas']['SplitLine'][];
      /**
       * @description Table of the new comanda (default: the same table)
       * @example 5
       */
      id_mesa?: number | null;
      /**
       * @description Customer of the new comanda (default: none)
       * @example null
       */
      id_cliente?: number | null;
    };
    SplitResult: {
      /** @description The comanda split, without what moved */
      origen: components['schemas']['ComandaDetail'];
      /** @description The new open comanda, with what moved */
      nueva: components['schemas']['ComandaDetail'];
    };
    MergeComandaBody: {
      /**
       * @description Ids of open comandas; each ends eliminada with motivo "unida a {numero_ticket}"
       * @example [
       *       302,
       *       305
       *     ]
       */
      comandas: number[];
    };
    ProductoDto: {
      /** @example 1 */
      id_producto: number;
      /** @example Ceviche clásico */
      nombre: string;
      /**
       * @description Current sale price
       * @example 38
       */
      precio: number;
      /**
       * @description false: withdrawn, not on sale
       * @example true
       */
      activo: boolean;
      /** @example 1 */
      id_categoria: number | null;
      /**
       * @description Category name (null: none)
       * @example Platos
       */
      categoria: string | null;
    };
    MesaDto: {
      /** @example 3 */
      id_mesa: number;
      /**
       * @description The number the staff know it by
       * @example 3
       */
      numero: number;
      /** @example terraza */
      zona: string | null;
      /**
       * @description Seats
       * @example 4
       */
      capacidad: number;
      /**
       * @description false: retired
       * @example true
       */
      activo: boolean;
      /**
       * @description Comandas open at the table (abierta, not deleted)
       * @example 1
       */
      abiertas: number;
    };
    MozoDto: {
      /** @example 4 */
      id_usuario: number;
      /**
       * @description Full name, as a comanda’s `mozo` shows it
       * @example Jorge Luis Rojas Chávez
       */
      nombre: string;
      /**
       * @description false: former staff
       * @example true
       */
      activo: boolean;
    };
    ReservaDto: {
      /** @example 41 */
      id_reserva: number;
      /** @example Familia Pérez */
      nombre: string;
      /** @example 4 */
      personas: number;
      /**
       * Format: date
       * @description Business day, tenant time zone
       * @example 2026-11-28
       */
      fecha: string;
      /**
       * @description HH:MM, tenant time zone
       * @example 20:30
       */
      hora: string;
      /**
       * @description null: no table yet
       * @example 3
       */
      id_mesa: number | null;
      /**
       * @description Table number
       * @example 3
       */
      mesa: number | null;
      /** @example 987 654 321 */
      telefono: string | null;
      /** @example null */
      observacion: string | null;
      /** @example null */
      id_cliente: number | null;
      /**
       * @description Customer name
       * @example null
       */
      cliente: string | null;
      /**
       * @example pendiente
       * @enum {string}
       */
      estado: 'pendiente' | 'sentada' | 'cancelada' | 'no_show';
      /**
       * @description The comanda opened when the party was seated
       * @example null
       */
      id_comanda: number | null;
      /**
       * @description Reason of a cancellation
       * @example null
       */
      motivo: string | null;
      /**
       * @description Who booked it (null without authentication)
       * @example 2
       */
      id_usuario_registro: number | null;
      /**
       * @description When it was booked
       * @example 2026-11-22T13:05:09-05:00
       */
      fec_registro: string;
      /**
       * @description Who seated, cancelled or marked it no_show (null without authentication)
       * @example null
       */
      id_usuario_estado: number | null;
      /**
       * @description When it left pendiente
       * @example null
       */
      fec_estado: string | null;
      /**
       * @description Optimistic-concurrency version (the ETag)
       * @example 1
       */
      version: number;
      /**
       * @description What the caller may do to this reservation now: the actions its state allows (only pendiente allows any) that the caller’s roles give the permission of (every action the state allows with AUTH_MODE=off), in a fixed order: editar (PATCH), sentar, cancelar, no_show (POST .../no-show). A screen shows the buttons listed.
       * @example [
       *       "editar",
       *       "sentar",
       *       "cancelar"
       *     ]
       */
      acciones: ('editar' | 'sentar' | 'cancelar' | 'no_show')[];
    };
    CreateReservaBody: {
      /** @example Familia Pérez */
      nombre: string;
      /** @example 4 */
      personas: number;
      /**
       * Format: date
       * @description Business day YYYY-MM-DD in the tenant time zone; not before today
       * @example 2026-11-28
       */
      fecha: string;
      /**
       * @description Time HH:MM in the tenant time zone
       * @example 20:30
       */
      hora: string;
      /**
       * @description Table; may be given later, or when the party is seated
       * @example 3
       */
      id_mesa?: number | null;
      /** @example 987 654 321 */
      telefono?: string | null;
      /** @example cumpleaños, una silla para bebé */
      observacion?: string | null;
      /**
       * @description Customer
       * @example null
       */
      id_cliente?: number | null;
    };
    UpdateReservaBody: {
      /** @example Familia Pérez Rojas */
      nombre?: string;
      /** @example 6 */
      personas?: number;
      /**
       * Format: date
       * @description Business day YYYY-MM-DD in the tenant time zone; not before today
       * @example 2026-11-29
       */
      fecha?: string;
      /**
       * @description Time HH:MM in the tenant time zone
       * @example 21:00
       */
      hora?: string;
      /**
       * @description Table; null: none yet
       * @example 5
       */
      id_mesa?: number | null;
      telefono?: string | null;
      observacion?: string | null;
      /** @description Customer; null: none */
      id_cliente?: number | null;
    };
    SentarReservaBody: {
      /**
       * @description The table the party sits at (default: the reservation’s)
       * @example 3
       */
      id_mesa?: number;
      /**
       * @description Waiter of the comanda opened (default: whoever seats the party)
       * @example 4
       */
      id_usuario?: number;
    };
    CancelarReservaBody: {
      /** @example el cliente llamó para cancelar */
      motivo: string;
    };
    ManifestErrorDto: {
      /**
       * @description JSON pointer of the offending or missing value ("" for the root)
       * @example /transport
       */
      path: string;
      /** @example must be one of file, tcp, http */
      message: string;
    };
    DriverDto: {
      /**
       * @description The name of the driver’s directory
       * @example zkteco-attlog
       */
      name: string;
      /**
       * @description drivers/ or DEVICE_DRIVERS_PATH
       * @enum {string}
       */
      source: 'builtin' | 'external';
      /**
       * @description The manifest with the driver’s own settings
       * @example {
       *       "vendor": "ZKTeco",
       *       "model": "attlog.dat",
       *       "transport": "file",
       *       "version": "1.0.0",
       *       "format": "zk-attlog"
       *     }
       */
      manifest: {
        [key: string]: unknown;
      };
      /** @description The file import (POST /asistencia/import, npm run asistencia:import) takes it: a file driver whose record format is usable. false for a push (http) or tcp driver, which imports no file (the upload answers DRIVER_NOT_FILE), and for a driver whose format is unknown or whose settings are invalid (DRIVER_NOT_IMPORTABLE; warnings say why) */
      importable: boolean;
      /** @description A record format assumed, and why the driver cannot import, by path */
      warnings: components['schemas']['ManifestErrorDto'][];
    };
    ManifestValidationDto: {
      /** @description The manifest follows the manifest schema: the registry loads it */
      valid: boolean;
      /** @description Violations of the manifest schema, by path */
      errors: components['schemas']['ManifestErrorDto'][];
      /**
       * @description What importing with the driver needs: a record format assumed because the manifest names none, or why it cannot import (an unknown format, invalid settings)
       * @example [
       *       {
       *         "path": "/format",
       *         "message": "not named: the ZKTeco attlog.dat layout is assumed"
       *       }
       *     ]
       */
      warnings: components['schemas']['ManifestErrorDto'][];
    };
    BadLineDto: {
      /** @example 7 */
      line: number;
      /** @example date-time "2026-13-01 08:00:00" is not YYYY-MM-DD HH:MM:SS */
      reason: string;
    };
    ImportSummaryDto: {
      /** @example zkteco-attlog */
      driver: string;
      /**
       * @description The file name, stored in asistencia_detalle.origen
       * @example attlog.dat
       */
      origen: string;
      /** @description Lines that are not blank */
      read: number;
      /** @description Well-formed punches sent to import_asistencia */
      punches: number;
      inserted: number;
      /** @description Punches already stored */
      duplicates: number;
      /** @description Documents matching no user (first 1000) */
      unknownDocuments: string[];
      /** @description Punches of unknown documents (not stored) */
      unknownDocumentPunches: number;
      badLineCount: number;
      /** @description First 1000 bad lines */
      badLines: components['schemas']['BadLineDto'][];
      /** @description Person-work days re-paired */
      daysRecalculated: number;
    };
    ColumnDto: {
      /** @example id_categoria */
      name: string;
      /** @example 6 */
      position: number;
      /** @example integer */
      type: string;
      /** @example int4 */
      udt: string;
      nullable: boolean;
      /** @example null */
      default: string | null;
      /** @enum {string|null} */
      identity: 'ALWAYS' | 'BY DEFAULT' | null;
      /** @description A computed column (never written) */
      generated: boolean;
      maxLength: number | null;
      primaryKey: boolean;
      /** @description Its single-column foreign key, or null */
      foreign?: {
        /** @example fk_productos_id_categoria */
        constraint: string;
        /** @example categorias */
        table: string;
        /** @example id_categoria */
        column: string;
      } | null;
    };
    TableSchema: {
      /** @example productos */
      table: string;
      /**
       * @description A table, or a view (read only: POST /table/:table answers 400 NOT_INSERTABLE)
       * @example table
       * @enum {string}
       */
      kind: 'table' | 'view';
      /**
       * @description POST /table/:table refuses every row: a table a module owns (400 TABLE_READ_ONLY) or a view (400 NOT_INSERTABLE). Read it here; write it with the routes of `owner`.
       * @example false
       */
      read_only: boolean;
      /**
       * @description Why it is read-only, in a sentence; null when writable
       * @example null
       */
      read_only_reason: string | null;
      /**
       * @description The module that owns the table and the routes that write it; null when none does
       * @example null
       */
      owner?: {
        /** @example comandas */
        module: string;
        /**
         * @example [
         *       "POST /api/v1/comandas",
         *       "PUT /api/v1/comandas/:id"
         *     ]
         */
        routes: string[];
      } | null;
      columns: components['schemas']['ColumnDto'][];
    };
    OptionItem: {
      /**
       * @description The referenced key
       * @example 1
       */
      id: number;
      /** @example Ceviches */
      label: string | null;
    };
    InsertedRow: {
      /**
       * @example {
       *       "id_categoria": 8,
       *       "nombre": "Postres",
       *       "descripcion": null,
       *       "activo": true
       *     }
       */
      inserted: {
        [key: string]: unknown;
      };
    };
    AsistenciaMarcaDto: {
      /** @example 1 */
      id_raw: number;
      /**
       * Format: date
       * @description As read
       * @example 2026-06-01
       */
      fecha: string;
      /**
       * @description HH:MM:SS, as read
       * @example 18:00:00
       */
      hora: string;
      /**
       * @description null: no mode (the punches alternate)
       * @enum {string|null}
       */
      modo: 'entrada' | 'salida' | null;
      /** @example attlog.dat */
      origen: string | null;
      /**
       * @description The clock’s other fields; `original` and `editado_en` after a manual edit
       * @example {
       *       "device_id": "ZK-01",
       *       "verify": 1
       *     }
       */
      datos: {
        [key: string]: unknown;
      };
      /**
       * Format: date
       * @description The work day it counts for (before the day cut-off: the previous day)
       * @example 2026-06-01
       */
      fecha_trabajo: string;
    };
    AsistenciaIntervaloDto: {
      /** @example 1 */
      id_intervalo: number;
      /**
       * Format: date
       * @example 2026-06-01
       */
      fecha_trabajo: string;
      /**
       * @description Local date-time
       * @example 2026-06-01T18:00:00
       */
      entrada: string;
      /**
       * @description Local date-time; null: still open (its out-punch is missing)
       * @example 2026-06-02T01:30:00
       */
      salida: string | null;
      /**
       * @description null while open
       * @example 450
       */
      minutos: number | null;
    };
    AsistenciaResumenDiaDto: {
      /**
       * Format: date
       * @example 2026-06-01
       */
      fecha_trabajo: string;
      /**
       * @description Minutes of the closed intervals
       * @example 450
       */
      minutos: number;
      /**
       * @description Intervals, open ones included
       * @example 1
       */
      intervalos: number;
      /**
       * @description Punches used by the intervals
       * @example 2
       */
      marcas: number;
      /** @description An open interval or an out-punch with nothing open */
      incompleto: boolean;
    };
    AsistenciaGetDto: {
      /** @description The person; null when no user has the document (the lists are then empty) */
      usuario: {
        /** @example 1 */
        id_usuario: number;
        /** @example 40000001 */
        documento: string;
        /** @example Rosa */
        nombre: string;
        /** @example Quispe */
        apellido: string | null;
      } | null;
      /** @description The raw punches of the work days, in time order (near-duplicates included) */
      marcas: components['schemas']['AsistenciaMarcaDto'][];
      /** @description The paired intervals */
      intervalos: components['schemas']['AsistenciaIntervaloDto'][];
      /** @description One summary per work day with punches, in date order */
      resumen: components['schemas']['AsistenciaResumenDiaDto'][];
    };
    ReportAsistenciaPersonaDto: {
      /** @example 1 */
      id_usuario: number;
      /** @example 40000001 */
      documento: string;
      /** @example Rosa */
      nombre: string;
      /** @example Quispe */
      apellido: string | null;
      /**
       * @description Work days with punches
       * @example 1
       */
      dias_trabajados: number;
      /**
       * @description Minutes of the closed intervals
       * @example 480
       */
      minutos: number;
      /**
       * @description Days with an open interval or an out-punch with nothing open
       * @example 0
       */
      dias_incompletos: number;
    };
    ReportAsistenciaDto: {
      /**
       * Format: date
       * @example 2026-06-01
       */
      desde: string;
      /**
       * Format: date
       * @example 2026-06-30
       */
      hasta: string;
      /** @description People with at least one work day in the range, by apellido and nombre */
      personas: components['schemas']['ReportAsistenciaPersonaDto'][];
    };
    LoginBody: {
      /**
       * @description The staff member’s documento
       * @example 40218833
       */
      documento: string;
      /**
       * Format: password
       * @example ceviche-de-lunes
       */
      password: string;
    };
    SessionUserDto: {
      /** @example 4 */
      id_usuario: number;
      /** @example Jorge Luis Rojas */
      nombre: string;
      /**
       * @example [
       *       "mozo"
       *     ]
       */
      roles: string[];
      /**
       * @example [
       *       "comandas:read",
       *       "comandas:write"
       *     ]
       */
      permissions: string[];
    };
    SessionDto: {
      /**
       * @description A JWT (HS256) with sub, tenant, exp and jti: send it in the Authorization header, after `Bearer `
       * @example eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9.eyJ0ZW5hbnQiOiJkZW1vIn0.c2lnbmF0dXJl
       */
      access_token: string;
      /**
       * @example Bearer
       * @enum {string}
       */
      token_type: 'Bearer';
      /**
       * Format: date-time
       * @example 2026-11-24T23:00:00.000Z
       */
      expires_at: string;
      usuario: components['schemas']['SessionUserDto'];
    };
    PinBody: {
      /**
       * @description 4 to 6 digits
       * @example 4827
       */
      pin: string;
      /**
       * @description Whose PIN it is (optional: a PIN alone finds its owner)
       * @example 4
       */
      id_usuario?: number;
    };
    CredentialsBody: {
      /**
       * @description At least 10 characters; null removes the password
       * @example ceviche-de-lunes
       */
      password?: string | null;
      /**
       * @description 4 to 6 digits, not trivial (0000, 1234 ...), unique in the restaurant; null removes it
       * @example 4827
       */
      pin?: string | null;
    };
    CredentialsDto: {
      /** @example 4 */
      id_usuario: number;
      /** @description Whether the user has a password */
      password: boolean;
      /** @description Whether the user has a PIN */
      pin: boolean;
      /**
       * @description Open sessions of the user that this change ended
       * @example 1
       */
      sesiones_cerradas: number;
    };
    SimulacionPagoDto: {
      /** @example 1 */
      id_metodo_pago: number;
      /** @example Efectivo */
      metodo: string;
      /** @example efectivo */
      tipo: string;
      /**
       * @description What the bill would take of it: the monto sent, or in cash the cash balance (saldo_efectivo) when the monto reaches it
       * @example 54.8
       */
      monto: number;
      /** @example 0 */
      propina: number;
      /**
       * @description Cash handed over: as sent, or monto + propina (null: not cash)
       * @example 60
       */
      recibido: number | null;
      /**
       * @description The change: recibido − monto applied − propina
       * @example 5.2
       */
      vuelto: number;
      /**
       * @description The open till session that would take it
       * @example 12
       */
      id_sesion: number;
      /** @example 1 */
      id_caja: number;
      /**
       * @description The bill after it: Σ monto of the applied payments
       * @example 54.8
       */
      pagado: number;
      /**
       * @description The bill after it: its tips
       * @example 0
       */
      propinas: number;
      /**
       * @description The bill after it: the cash rounding in the customer’s favour
       * @example -0.05
       */
      redondeo: number;
      /**
       * @description The bill after it: what is still due
       * @example 0
       */
      saldo: number;
      /**
       * @description The bill after it: what settles the rest in cash (saldo rounded down)
       * @example 0
       */
      saldo_efectivo: number;
      /**
       * @description The bill after it
       * @example pagada
       * @enum {string}
       */
      estado_pago: 'pendiente' | 'pagada' | 'reembolso_parcial' | 'reembolsada';
      /**
       * @description Whether it settles the bill (nothing due after it): a PUT /comandas/{id} with {"action":"cerrar","pagos":[this body]} would pay and close
       * @example true
       */
      salda: boolean;
    };
    AnularPagoBody: {
      /**
       * @description Required, in the body or the query
       * @example se cobró con el método equivocado
       */
      motivo?: string;
    };
    ReembolsoLinea: {
      /**
       * @description A line of the comanda
       * @example 977
       */
      id_item: number;
      /**
       * @description At most the line’s
       * @example 1
       */
      cantidad: number;
    };
    ReembolsoBody: {
      /**
       * @description The payment refunded
       * @example 88
       */
      id_pago: number;
      /**
       * @description With the refunds before, at most the payment’s monto
       * @example 32
       */
      monto: number;
      /** @example plato devuelto */
      motivo: string;
      lineas?: components['schemas']['ReembolsoLinea'][];
      /**
       * @description The till the money comes out of (its open session; default as for a payment)
       * @example 1
       */
      id_caja?: number;
    };
    DescuentoBody: {
      /**
       * @example porcentaje
       * @enum {string}
       */
      tipo: 'porcentaje' | 'monto';
      /**
       * @description porcentaje: 0–100 of the lines; monto: soles (at most the lines’ sum); 0 removes it
       * @example 10
       */
      valor: number;
      /** @example cliente frecuente */
      motivo: string;
    };
    MetodoPagoDto: {
      /** @example 1 */
      id_metodo_pago: number;
      /** @example Efectivo */
      nombre: string;
      /** @enum {string} */
      tipo: 'efectivo' | 'tarjeta' | 'billetera' | 'transferencia' | 'otro';
      /**
       * @description Counted in the till at the close
       * @example true
       */
      cuenta_en_caja: boolean;
    };
    CajaDto: {
      /** @example 1 */
      id_caja: number;
      /** @example Caja 1 */
      nombre: string;
      /**
       * @description Its open session (null: none is open)
       * @example 12
       */
      id_sesion_abierta: number | null;
      /**
       * @description Its float
       * @example 200
       */
      monto_apertura: number | null;
      /** @example 2026-11-22T11:58:00-05:00 */
      fec_apertura: string | null;
      /**
       * @description Who opened it
       * @example Carmen Rojas
       */
      abierta_por: string | null;
      /** @description abrir_sesion (POST /cajas/{id}/sesiones, caja:operate) while none is open */
      acciones: 'abrir_sesion'[];
    };
    AbrirSesionBody: {
      /**
       * @description Cash in the drawer at the opening (soles)
       * @example 200
       */
      monto_apertura: number;
    };
    SesionCajaDto: {
      /** @example 12 */
      id_sesion: number;
      /** @example 1 */
      id_caja: number;
      /** @example Caja 1 */
      caja: string;
      /** @enum {string} */
      estado: 'abierta' | 'cerrada';
      /**
       * @description Set at the close
       * @example null
       */
      numero_z: number | null;
      /** @example 200 */
      monto_apertura: number;
      /** @example 2026-11-22T11:58:00-05:00 */
      fec_apertura: string;
      /** @example null */
      fec_cierre: string | null;
      /** @example 3 */
      id_usuario_apertura: number | null;
      /** @example Carmen Rojas */
      abierta_por: string | null;
      /** @example null */
      id_usuario_cierre: number | null;
      /** @example null */
      cerrada_por: string | null;
      /** @example null */
      nota: string | null;
      /** @description registrar_movimiento (POST …/movimientos) and cerrar (POST …/cerrar), caja:operate, while abierta */
      acciones: ('registrar_movimiento' | 'cerrar')[];
    };
    ReporteMetodoDto: {
      /** @example 1 */
      id_metodo_pago: number;
      /** @example Efectivo */
      nombre: string;
      /** @enum {string} */
      tipo: 'efectivo' | 'tarjeta' | 'billetera' | 'transferencia' | 'otro';
      /** @example true */
      cuenta_en_caja: boolean;
      /**
       * @description Applied payments
       * @example 31
       */
      pagos: number;
      /**
       * @description Σ monto of the applied payments
       * @example 1410.5
       */
      ventas: number;
      /**
       * @description Σ propina of the applied payments
       * @example 35
       */
      propinas: number;
      /**
       * @description Refunds paid out of this session
       * @example 0
       */
      reembolsos: number;
      /**
       * @description Opening float (the cash method only)
       * @example 200
       */
      apertura: number;
      /**
       * @description Cash put in (the cash method only)
       * @example 0
       */
      ingresos: number;
      /**
       * @description Cash taken out (the cash method only)
       * @example 40
       */
      retiros: number;
      /**
       * @description apertura + ventas + propinas + ingresos − retiros − reembolsos
       * @example 1605.5
       */
      esperado: number;
      /**
       * @description Z only
       * @example 1603.5
       */
      contado: number | null;
      /**
       * @description contado − esperado (Z)
       * @example -2
       */
      diferencia: number | null;
    };
    ReporteTotalesDto: {
      /** @example 58 */
      pagos: number;
      /**
       * @description Comandas with an applied payment in the session
       * @example 41
       */
      comandas: number;
      /** @example 2630.5 */
      ventas: number;
      /** @example 61 */
      propinas: number;
      /** @example 0 */
      reembolsos: number;
      /** @example 0 */
      ingresos: number;
      /** @example 40 */
      retiros: number;
      /** @example 2851.5 */
      esperado: number;
      /** @example 2849.5 */
      contado: number | null;
      /** @example -2 */
      diferencia: number | null;
    };
    MovimientoDto: {
      /** @example 7 */
      id_movimiento: number;
      /** @example 12 */
      id_sesion: number;
      /** @enum {string} */
      tipo: 'ingreso' | 'retiro';
      /** @example 40 */
      monto: number;
      /** @example compra de limones */
      motivo: string;
      /** @example 3 */
      id_usuario: number | null;
      /** @example Carmen Rojas */
      usuario: string | null;
      /** @example 2026-11-22T16:10:00-05:00 */
      fec_movimiento: string;
    };
    ConteoDenominacion: {
      /**
       * @description S/ 200 … S/ 0.10
       * @example 50
       */
      denominacion: number;
      /** @example 12 */
      cantidad: number;
    };
    ReporteCajaDto: {
      /** @enum {string} */
      tipo: 'X' | 'Z';
      sesion: components['schemas']['SesionCajaDto'];
      /**
       * @description When the figures were read
       * @example 2026-11-22T23:10:00-05:00
       */
      fec_reporte: string;
      metodos: components['schemas']['ReporteMetodoDto'][];
      totales: components['schemas']['ReporteTotalesDto'];
      movimientos: components['schemas']['MovimientoDto'][];
      /** @description The cash count by denomination given at the close (Z) */
      conteo: components['schemas']['ConteoDenominacion'][] | null;
    };
    MovimientoBody: {
      /**
       * @example retiro
       * @enum {string}
       */
      tipo: 'ingreso' | 'retiro';
      /** @example 40 */
      monto: number;
      /** @example compra de limones */
      motivo: string;
    };
    ContadoMetodo: {
      /** @example 1 */
      id_metodo_pago: number;
      /** @example 1254.3 */
      monto: number;
    };
    CerrarSesionBody: {
      /** @description What was counted per method. The cash method (cuenta_en_caja) is required unless conteo gives it; another method not listed is taken as counted equal to what was expected (reconciled against its terminal’s batch). */
      contado: components['schemas']['ContadoMetodo'][];
      /** @description The cash count by denomination, kept with the Z; when the cash method is not in contado, its count is the sum of these (when it is, they must agree) */
      conteo?: components['schemas']['ConteoDenominacion'][];
      /** @example faltan 2 soles de sencillo */
      nota?: string;
    };
    TasaIgvDto: {
      /** @example 2000-01-01 */
      vigente_desde: string;
      /** @example 0.18 */
      tasa: number;
    };
    AjustesDto: {
      /** @example 0 */
      tasa_recargo: number;
      /** @example 0.1 */
      paso_redondeo: number;
      /** @example 5 */
      tolerancia_cierre: number;
      tasas_igv: components['schemas']['TasaIgvDto'][];
    };
    TasaIgvInput: {
      /**
       * Format: date
       * @example 2026-01-01
       */
      vigente_desde: string;
      /**
       * @description A fraction: 0.18 is 18 %, 0.10 the small restaurants’ rate
       * @example 0.18
       */
      tasa: number;
    };
    AjustesBody: {
      /**
       * @description Recargo al consumo (service charge), a fraction 0–0.13, outside the IGV base
       * @example 0.1
       */
      tasa_recargo?: number;
      /**
       * @description Cash rounding step: 0.10 rounds a cash settlement down to S/ 0.10; 0 turns it off
       * @example 0.1
       * @enum {number}
       */
      paso_redondeo?: 0 | 0.1;
      /**
       * @description A close whose difference of any method is larger needs caja:approve-difference
       * @example 5
       */
      tolerancia_cierre?: number;
      /** @description The IGV rates by date (replaces the list; at least one) */
      tasas_igv?: components['schemas']['TasaIgvInput'][];
    };
    SaldoDto: {
      /** @example 3 */
      id_mat_prima: number;
      /** @example Pescado (corvina) */
      nombre: string;
      /** @enum {string} */
      unidad: 'kg' | 'g' | 'l' | 'ml' | 'unidad';
      /** @example true */
      activo: boolean;
      /**
       * @description In stock, in its unidad (negative: more used than recorded)
       * @example 12.35
       */
      cantidad: number;
      /**
       * @description Moving-average cost per unidad (soles, 6 decimals)
       * @example 38.5
       */
      costo_promedio: number;
      /**
       * @description Value of the stock (soles, 4 decimals): the sum of its movements’ values
       * @example 475.48
       */
      valor: number;
      /**
       * @description mate_primas.stock_minimo
       * @example 5
       */
      stock_minimo: number | null;
      /**
       * @description cantidad below zero
       * @example false
       */
      negativo: boolean;
      /**
       * @description cantidad below stock_minimo
       * @example false
       */
      bajo_minimo: boolean;
      /**
       * @description Its last movement
       * @example 2026-11-24T21:10:00-05:00
       */
      ultimo_movimiento: string | null;
    };
    MaterialDto: {
      /** @example 3 */
      id_mat_prima: number;
      /** @example Pescado (corvina) */
      nombre: string;
      /** @enum {string} */
      unidad: 'kg' | 'g' | 'l' | 'ml' | 'unidad';
      /** @example true */
      activo: boolean;
    };
    MovimientoStockDto: {
      /** @example 1042 */
      id_movimiento: number;
      /** @example 3 */
      id_mat_prima: number;
      /** @example Pescado (corvina) */
      material: string;
      /** @enum {string} */
      unidad: 'kg' | 'g' | 'l' | 'ml' | 'unidad';
      /** @enum {string} */
      tipo:
        | 'inicial'
        | 'compra'
        | 'reverso_compra'
        | 'consumo_venta'
        | 'reverso_consumo'
        | 'merma'
        | 'ajuste_conteo';
      /**
       * @description Signed, in the material’s unidad
       * @example -0.18
       */
      cantidad: number;
      /**
       * @description Per unidad: an inflow’s own cost, an outflow’s the average then
       * @example 38.5
       */
      costo_unitario: number;
      /**
       * @description cantidad × costo_unitario, signed
       * @example -6.93
       */
      valor: number;
      /**
       * @description The material’s stock after it
       * @example 12.35
       */
      saldo_cantidad: number;
      /**
       * @description The average cost after it
       * @example 38.5
       */
      saldo_costo: number;
      /**
       * @description What caused it
       * @enum {string}
       */
      origen: 'inicial' | 'compra' | 'consumo' | 'merma' | 'conteo';
      /**
       * @description compra: the purchase line; consumo: the line’s consumption; merma: the waste record; conteo: the count
       * @example 877
       */
      id_origen: number;
      /**
       * @description The purchase (compra), comanda (consumo) or count (conteo) it belongs to
       * @example 120
       */
      id_documento: number | null;
      /**
       * @description When it counts in the stock
       * @example 2026-11-24T21:10:00-05:00
       */
      fec: string;
      /** @example 2 */
      id_usuario: number | null;
      /** @example Rosa Quispe */
      usuario: string | null;
      /** @example null */
      motivo: string | null;
    };
    MermaBody: {
      /** @example 3 */
      id_mat_prima: number;
      /**
       * @description How much was lost, in the material’s unidad (up to 4 decimals)
       * @example 0.5
       */
      cantidad: number;
      /** @example pescado fuera de cadena de frío */
      motivo: string;
      /**
       * @description An instant (ISO 8601; without an offset, the tenant’s local time); default now
       * @example 2026-11-24T22:40:00-05:00
       */
      fec?: string;
    };
    ConteoResumenDto: {
      /** @example 7 */
      id_conteo: number;
      /** @enum {string} */
      estado: 'borrador' | 'aplicado' | 'descartado';
      /** @example 2026-11-24T23:30:00-05:00 */
      fec_corte: string;
      /** @example cierre de mes */
      observacion: string | null;
      /** @example Rosa Quispe */
      creado_por: string | null;
      /** @example null */
      fec_aplicacion: string | null;
      /** @example 42 */
      total_lineas: number;
      acciones: ('editar' | 'aplicar' | 'descartar')[];
    };
    ConteoLineaInput: {
      /** @example 3 */
      id_mat_prima: number;
      /**
       * @description What is on the shelf, in the material’s unidad (up to 4 decimals)
       * @example 4.25
       */
      contado: number;
    };
    ConteoBody: {
      /**
       * @description The cut-off the counts are of (what the ledger holds up to then is compared); An instant (ISO 8601; without an offset, the tenant’s local time); default now. Not in the future; after the last applied count’s cut-off
       * @example 2026-11-24T23:30:00-05:00
       */
      fec_corte?: string;
      /** @example cierre de mes */
      observacion?: string;
      /** @description One line per material counted (a material once) */
      lineas: components['schemas']['ConteoLineaInput'][];
    };
    ConteoLineaDto: {
      /** @example 3 */
      id_mat_prima: number;
      /** @example Pescado (corvina) */
      nombre: string;
      /** @enum {string} */
      unidad: 'kg' | 'g' | 'l' | 'ml' | 'unidad';
      /** @example 4.25 */
      contado: number;
      /**
       * @description The ledger’s quantity at the cut-off: live while a draft, frozen when applied
       * @example 4.6
       */
      sistema: number;
      /**
       * @description contado − sistema: the adjustment applying posts
       * @example -0.35
       */
      diferencia: number;
      /**
       * @description Average cost now (draft) or the adjustment’s (applied)
       * @example 38.5
       */
      costo_promedio: number;
      /**
       * @description The difference’s value (soles, 2 decimals)
       * @example -13.48
       */
      valor_diferencia: number;
    };
    ConteoDto: {
      /** @example 7 */
      id_conteo: number;
      /** @enum {string} */
      estado: 'borrador' | 'aplicado' | 'descartado';
      /** @example 2026-11-24T23:30:00-05:00 */
      fec_corte: string;
      /** @example cierre de mes */
      observacion: string | null;
      /** @example Rosa Quispe */
      creado_por: string | null;
      /** @example 2026-11-24T23:35:00-05:00 */
      created_at: string;
      /** @example null */
      fec_aplicacion: string | null;
      /** @example null */
      aplicado_por: string | null;
      /** @example 42 */
      total_lineas: number;
      /**
       * @description Σ valor_diferencia (soles)
       * @example -85.1
       */
      valor_diferencias: number;
      /** @description By material name */
      lineas: components['schemas']['ConteoLineaDto'][];
      /** @description What the caller may do now: editar (PATCH), aplicar, descartar (inventario:write) while a draft */
      acciones: ('editar' | 'aplicar' | 'descartar')[];
    };
    ConteoLineaPatch: {
      /** @example 3 */
      id_mat_prima: number;
      /**
       * @description The count (null takes the material off the sheet)
       * @example 4.25
       */
      contado: number | null;
    };
    ConteoPatchBody: {
      /** @description Lines to set (added or replaced) or, with contado null, to take off */
      lineas?: components['schemas']['ConteoLineaPatch'][];
      observacion?: string | null;
    };
    ConsumoMaterialDto: {
      /** @example 3 */
      id_mat_prima: number;
      /** @example Pescado (corvina) */
      nombre: string;
      /** @enum {string} */
      unidad: 'kg' | 'g' | 'l' | 'ml' | 'unidad';
      /**
       * @description Theoretical usage: the recipes of what was sold (net of reopened sales)
       * @example 18.4
       */
      teorico_cantidad: number;
      /** @example 708.4 */
      teorico_valor: number;
      /**
       * @description Waste recorded
       * @example 0.5
       */
      merma_cantidad: number;
      /** @example 19.25 */
      merma_valor: number;
      /**
       * @description Count adjustments (negative: less on the shelf than recorded)
       * @example -0.35
       */
      ajuste_cantidad: number;
      /** @example -13.48 */
      ajuste_valor: number;
      /**
       * @description Actual usage: stock at desde + purchases − stock at hasta (= theoretical + waste − adjustments)
       * @example 19.25
       */
      real_cantidad: number;
      /** @example 741.13 */
      real_valor: number;
      /**
       * @description real − teórico
       * @example 0.85
       */
      varianza_cantidad: number;
      /** @example 32.73 */
      varianza_valor: number;
    };
    ConsumoDto: {
      /** @example 2026-11-01T00:00:00-05:00 */
      desde: string;
      /** @example 2026-11-25T00:00:00-05:00 */
      hasta: string;
      /**
       * @description Comandas closed in the period (not deleted)
       * @example 1240
       */
      comandas: number;
      /**
       * @description Their sales without IGV and recargo (after discounts), at the rates frozen at their close
       * @example 48210.17
       */
      ventas_netas: number;
      /**
       * @description Σ teorico_valor (soles, 2 decimals)
       * @example 14923.5
       */
      costo_teorico: number;
      /**
       * @description Σ real_valor (soles, 2 decimals)
       * @example 15402.1
       */
      costo_real: number;
      /**
       * @description costo_teorico / ventas_netas, in % (null without sales)
       * @example 30.95
       */
      food_cost_teorico_pct: number | null;
      /**
       * @description costo_real / ventas_netas, in %
       * @example 31.95
       */
      food_cost_real_pct: number | null;
      /** @description Materials with a movement in the period, by name */
      materiales: components['schemas']['ConsumoMaterialDto'][];
    };
    IngredienteCostoDto: {
      /** @example 3 */
      id_mat_prima: number;
      /** @example Pescado (corvina) */
      nombre: string;
      /** @enum {string} */
      unidad: 'kg' | 'g' | 'l' | 'ml' | 'unidad';
      /**
       * @description Per portion, in its unidad
       * @example 0.18
       */
      cantidad: number;
      /** @example 38.5 */
      costo_promedio: number;
      /**
       * @description cantidad × costo_promedio (soles, 4 decimals)
       * @example 6.93
       */
      costo: number;
    };
    ProductoCostoDto: {
      /** @example 12 */
      id_producto: number;
      /** @example Ceviche clásico */
      nombre: string;
      /**
       * @description Its price (IGV included)
       * @example 32
       */
      precio: number;
      /**
       * @description The IGV rate in force today
       * @example 0.18
       */
      tasa_igv: number;
      /**
       * @description round(precio / (1 + tasa_igv), 2)
       * @example 27.12
       */
      precio_sin_igv: number;
      /**
       * @description Σ of the ingredients’ cost (soles, 2 decimals)
       * @example 8.42
       */
      costo: number;
      /**
       * @description costo / precio_sin_igv in % (null at price 0)
       * @example 31.05
       */
      food_cost_pct: number | null;
      /**
       * @description Whether it has a recipe (without one its cost is 0)
       * @example true
       */
      con_receta: boolean;
      ingredientes: components['schemas']['IngredienteCostoDto'][];
    };
    EstacionDto: {
      /** @example 1 */
      id_estacion: number;
      /** @example Cocina */
      nombre: string;
      /**
       * @example preparacion
       * @enum {string}
       */
      tipo: 'preparacion' | 'expo';
      /** @example 8 */
      alerta_amarilla_min: number;
      /** @example 15 */
      alerta_roja_min: number;
      /** @example true */
      activo: boolean;
      /**
       * @description Its categories
       * @example [
       *       2,
       *       5
       *     ]
       */
      categorias: number[];
    };
    EstacionBody: {
      /**
       * @description Minutes after which a ticket turns yellow (less than alerta_roja_min)
       * @example 8
       */
      alerta_amarilla_min?: number;
      /**
       * @description Minutes after which a ticket turns red
       * @example 15
       */
      alerta_roja_min?: number;
      /** @example true */
      activo?: boolean;
      /** @example Parrilla */
      nombre: string;
      /**
       * @description preparacion (default) receives tickets; expo sees every station’s
       * @enum {string}
       */
      tipo?: 'preparacion' | 'expo';
    };
    EstacionPatchBody: {
      /** @example Parrilla */
      nombre?: string;
      /**
       * @description Minutes after which a ticket turns yellow (less than alerta_roja_min)
       * @example 8
       */
      alerta_amarilla_min?: number;
      /**
       * @description Minutes after which a ticket turns red
       * @example 15
       */
      alerta_roja_min?: number;
      /** @example true */
      activo?: boolean;
    };
    EstacionCategoriasBody: {
      /**
       * @description The categories this station prepares (each leaves the station it was at)
       * @example [
       *       2,
       *       5
       *     ]
       */
      categorias: number[];
    };
    EnvioLineaDto: {
      /** @example 977 */
      id_item: number;
      /** @example 12 */
      id_producto: number;
      /** @example Ceviche clásico */
      producto: string;
      /**
       * @description Signed: negative in a cancellation (anulacion)
       * @example 2
       */
      cantidad: number;
      /** @example sin ají */
      nota: string | null;
      /**
       * @description The line’s kitchen state now (null: the line was voided)
       * @example enviado
       * @enum {string|null}
       */
      estado_cocina: 'pendiente' | 'enviado' | 'en_preparacion' | 'listo' | 'entregado' | null;
    };
    EnvioDto: {
      /** @example 41 */
      id_envio: number;
      /** @example 301 */
      id_comanda: number;
      /** @example 1042 */
      numero_ticket: number;
      /**
       * @description The table’s number
       * @example 3
       */
      mesa: number | null;
      /** @example Rosa Quispe */
      mozo: string | null;
      /** @example 1 */
      id_estacion: number;
      /** @example 1 */
      curso: number;
      /**
       * @example nuevo
       * @enum {string}
       */
      tipo: 'nuevo' | 'adicional' | 'anulacion';
      /**
       * @example pendiente
       * @enum {string}
       */
      estado: 'pendiente' | 'en_preparacion' | 'listo';
      lineas: components['schemas']['EnvioLineaDto'][];
      /** @example 2026-11-22T13:07:00-05:00 */
      fec_envio: string;
      /** @example null */
      fec_listo: string | null;
      /**
       * @description When its course was fired
       * @example 2026-11-22T13:07:00-05:00
       */
      fec_disparo: string | null;
      /**
       * @description What the caller may do to the ticket now
       * @example [
       *       "preparar",
       *       "listo"
       *     ]
       */
      acciones: ('preparar' | 'listo' | 'recuperar')[];
    };
    EnvioResult: {
      /** @description The tickets written (none: nothing new) */
      envios: components['schemas']['EnvioDto'][];
      /**
       * @description The comanda’s version now (unchanged when none)
       * @example 4
       */
      version: number;
    };
    FilaVentasDto: {
      /**
       * @description Distinct comandas covered (closed, not voided, in the range)
       * @example 42
       */
      comandas: number;
      /**
       * @description Σ of the lines’ quantities (agrupar=producto or categoria; in totales, of every line), else null
       * @example 57
       */
      unidades: number | null;
      /**
       * @description Σ of the comandas’ total (their lines’ subtotals, IGV included, before discounts); producto/categoria: Σ of the line subtotals; metodo: Σ of the payments’ monto (tips excluded)
       * @example 3140.5
       */
      venta_bruta: number;
      /**
       * @description Σ of the comandas’ discounts (porcentaje: round(total × valor / 100, 2); monto: least(valor, total)); producto/categoria/metodo: each line’s or payment’s share
       * @example 120.4
       */
      descuentos: number;
      /**
       * @description Without IGV and service charge: Σ per comanda of round((total − descuento) / (1 + tasa_igv), 2); producto/categoria/metodo: shares
       * @example 2559.43
       */
      venta_neta: number;
      /**
       * @description round((venta_bruta − descuentos) / comandas, 2) (metodo: round(venta_bruta / comandas, 2)); null with no comandas and for producto/categoria rows
       * @example 71.91
       */
      ticket_promedio: number | null;
      /**
       * @description Only with agrupar=metodo: Σ of the applied payments’ tips
       * @example 35.5
       */
      propinas?: number;
      /**
       * @description Only with the feature inventario: Σ of the theoretical recipe cost of the lines consumed at close
       * @example 812.3
       */
      costo_teorico?: number;
      /**
       * @description Only with the feature inventario: costo_teorico × 100 / venta_neta, 2 decimals; null when venta_neta is 0
       * @example 31.74
       */
      food_cost?: number | null;
      /**
       * @description Stable key: YYYY-MM-DD (dia), the ISO week’s Monday (semana), YYYY-MM (mes), 0..23 (hora), isodow-hour such as 1-13 (dia_semana_hora), the id (producto, categoria, mozo, metodo; sin_categoria, sin_mozo), the id_mesa or para_llevar (mesa)
       * @example 2026-11-03
       */
      clave: string;
      /**
       * @description For people: 03/11/2026, Semana del 03/11/2026, noviembre 2026, 13:00, lunes 13:00, the product’s or category’s name, the waiter’s name, Mesa 4 / Para llevar, the method’s name
       * @example 03/11/2026
       */
      etiqueta: string;
    };
    TotalesVentasDto: {
      /**
       * @description Distinct comandas covered (closed, not voided, in the range)
       * @example 42
       */
      comandas: number;
      /**
       * @description Σ of the lines’ quantities (agrupar=producto or categoria; in totales, of every line), else null
       * @example 57
       */
      unidades: number | null;
      /**
       * @description Σ of the comandas’ total (their lines’ subtotals, IGV included, before discounts); producto/categoria: Σ of the line subtotals; metodo: Σ of the payments’ monto (tips excluded)
       * @example 3140.5
       */
      venta_bruta: number;
      /**
       * @description Σ of the comandas’ discounts (porcentaje: round(total × valor / 100, 2); monto: least(valor, total)); producto/categoria/metodo: each line’s or payment’s share
       * @example 120.4
       */
      descuentos: number;
      /**
       * @description Without IGV and service charge: Σ per comanda of round((total − descuento) / (1 + tasa_igv), 2); producto/categoria/metodo: shares
       * @example 2559.43
       */
      venta_neta: number;
      /**
       * @description round((venta_bruta − descuentos) / comandas, 2) (metodo: round(venta_bruta / comandas, 2)); null with no comandas and for producto/categoria rows
       * @example 71.91
       */
      ticket_promedio: number | null;
      /**
       * @description Only with agrupar=metodo: Σ of the applied payments’ tips
       * @example 35.5
       */
      propinas?: number;
      /**
       * @description Only with the feature inventario: Σ of the theoretical recipe cost of the lines consumed at close
       * @example 812.3
       */
      costo_teorico?: number;
      /**
       * @description Only with the feature inventario: costo_teorico × 100 / venta_neta, 2 decimals; null when venta_neta is 0
       * @example 31.74
       */
      food_cost?: number | null;
    };
    ReporteVentasDto: {
      /**
       * Format: date
       * @example 2026-11-01
       */
      desde: string;
      /**
       * Format: date
       * @example 2026-11-30
       */
      hasta: string;
      /**
       * @example dia
       * @enum {string}
       */
      agrupar:
        | 'dia'
        | 'semana'
        | 'mes'
        | 'hora'
        | 'dia_semana_hora'
        | 'producto'
        | 'categoria'
        | 'mozo'
        | 'mesa'
        | 'metodo';
      /**
       * @description The tenant’s time zone: the days and hours of the report are its
       * @example America/Lima
       */
      zona_horaria: string;
      /** @description Time groupings: every bucket of the range in time order, empty ones with zeros; the others: by venta_bruta, highest first, then clave */
      filas: components['schemas']['FilaVentasDto'][];
      /** @description Over all the covered comandas (a comanda counts once) */
      totales: components['schemas']['TotalesVentasDto'];
    };
    FilaGastosDto: {
      /**
       * @description Closed, not voided comandas closed in the month (within the range)
       * @example 910
       */
      comandas: number;
      /**
       * @description Σ of those comandas’ total
       * @example 48210.5
       */
      ventas: number;
      /**
       * @description Σ of the purchases’ total (compras.total) dated in the month (within the range)
       * @example 17320
       */
      gastos: number;
      /**
       * @description The local month, YYYY-MM
       * @example 2026-11
       */
      clave: string;
      /** @example noviembre 2026 */
      etiqueta: string;
    };
    TotalesGastosDto: {
      /**
       * @description Closed, not voided comandas closed in the month (within the range)
       * @example 910
       */
      comandas: number;
      /**
       * @description Σ of those comandas’ total
       * @example 48210.5
       */
      ventas: number;
      /**
       * @description Σ of the purchases’ total (compras.total) dated in the month (within the range)
       * @example 17320
       */
      gastos: number;
    };
    ReporteGastosDto: {
      /**
       * Format: date
       * @example 2025-12-01
       */
      desde: string;
      /**
       * Format: date
       * @example 2026-11-30
       */
      hasta: string;
      /** @description Every month the range touches, in order, empty ones with zeros */
      filas: components['schemas']['FilaGastosDto'][];
      totales: components['schemas']['TotalesGastosDto'];
    };
    FilaAsistenciaDto: {
      /** @example 3 */
      id_usuario: number;
      /** @example Rosa */
      nombre: string;
      /** @example Quispe */
      apellido: string | null;
      /**
       * @description Work days with punches
       * @example 22
       */
      dias_trabajados: number;
      /**
       * @description Minutes of the closed intervals
       * @example 10575
       */
      minutos: number;
      /**
       * @description minutos / 60, 2 decimals
       * @example 176.25
       */
      horas: number;
      /**
       * @description Days with an open interval or an unpaired out-punch
       * @example 1
       */
      dias_incompletos: number;
    };
    ReporteAsistenciaDto: {
      /**
       * Format: date
       * @example 2026-11-01
       */
      desde: string;
      /**
       * Format: date
       * @example 2026-11-30
       */
      hasta: string;
      /** @description People with at least one work day in the range, by apellido, nombre */
      filas: components['schemas']['FilaAsistenciaDto'][];
    };
    WebhookDto: {
      /** @example 3 */
      id_webhook: number;
      /** @example https://erp.example.com/hooks/comandas */
      url: string;
      /**
       * @example [
       *       "comanda.cerrar",
       *       "pago.*"
       *     ]
       */
      eventos: string[];
      /** @example Contabilidad: ventas cerradas */
      descripcion: string | null;
      /**
       * @description Whether messages are sent to it
       * @example true
       */
      activo: boolean;
      /**
       * @example activo
       * @enum {string}
       */
      estado: 'activo' | 'inactivo';
      /**
       * @description Why the service switched it off (the receiver answered 410, or failed for 5 days); null when on or switched off by a person
       * @example null
       */
      motivo_desactivacion: string | null;
      /**
       * Format: date-time
       * @example null
       */
      fec_desactivacion: string | null;
      /**
       * Format: date-time
       * @description Its first failed attempt since the last delivered message; null: healthy
       * @example null
       */
      fallando_desde: string | null;
      /**
       * Format: date-time
       * @description Until when the secret before the last rotation also signs; null: one secret
       * @example null
       */
      secreto_anterior_hasta: string | null;
      /**
       * Format: date-time
       * @example 2026-11-28T10:15:00.000-05:00
       */
      created_at: string;
      /**
       * Format: date-time
       * @example 2026-11-28T10:15:00.000-05:00
       */
      updated_at: string;
      /**
       * @description What the caller may do to it now
       * @example [
       *       "editar",
       *       "probar",
       *       "rotar",
       *       "desactivar",
       *       "eliminar"
       *     ]
       */
      acciones: ('editar' | 'probar' | 'rotar' | 'desactivar' | 'activar' | 'eliminar')[];
    };
    CreateWebhookBody: {
      /**
       * @description Where the messages are POSTed: https in production; private, loopback and link-local hosts are refused
       * @example https://erp.example.com/hooks/comandas
       */
      url: string;
      /**
       * @description Event types (comanda.cerrar) or a module’s wildcard (comanda.*); an unknown one is refused
       * @example [
       *       "comanda.cerrar",
       *       "pago.*"
       *     ]
       */
      eventos: (
        | 'comanda.*'
        | 'pago.*'
        | 'cocina.*'
        | 'sesion_caja.*'
        | 'inventario.*'
        | 'comanda.crear'
        | 'comanda.abrir'
        | 'comanda.cerrar'
        | 'comanda.restaurar'
        | 'comanda.editar'
        | 'comanda.eliminar'
        | 'comanda.agregar_item'
        | 'comanda.modificar_item'
        | 'comanda.quitar_item'
        | 'comanda.dividir'
        | 'comanda.unir'
        | 'comanda.transferir'
        | 'pago.pagar'
        | 'pago.anular_pago'
        | 'pago.reembolsar'
        | 'pago.descontar'
        | 'cocina.enviar'
        | 'cocina.disparar'
        | 'cocina.preparar'
        | 'cocina.listo'
        | 'cocina.recuperar'
        | 'cocina.entregar'
        | 'sesion_caja.abrir'
        | 'sesion_caja.ingreso'
        | 'sesion_caja.retiro'
        | 'sesion_caja.cerrar'
        | 'inventario.merma'
        | 'inventario.conteo_crear'
        | 'inventario.conteo_aplicar'
        | 'inventario.conteo_descartar'
      )[];
      /** @example Contabilidad: ventas cerradas */
      descripcion?: string | null;
    };
    WebhookConSecretoDto: {
      /** @example 3 */
      id_webhook: number;
      /** @example https://erp.example.com/hooks/comandas */
      url: string;
      /**
       * @example [
       *       "comanda.cerrar",
       *       "pago.*"
       *     ]
       */
      eventos: string[];
      /** @example Contabilidad: ventas cerradas */
      descripcion: string | null;
      /**
       * @description Whether messages are sent to it
       * @example true
       */
      activo: boolean;
      /**
       * @example activo
       * @enum {string}
       */
      estado: 'activo' | 'inactivo';
      /**
       * @description Why the service switched it off (the receiver answered 410, or failed for 5 days); null when on or switched off by a person
       * @example null
       */
      motivo_desactivacion: string | null;
      /**
       * Format: date-time
       * @example null
       */
      fec_desactivacion: string | null;
      /**
       * Format: date-time
       * @description Its first failed attempt since the last delivered message; null: healthy
       * @example null
       */
      fallando_desde: string | null;
      /**
       * Format: date-time
       * @description Until when the secret before the last rotation also signs; null: one secret
       * @example null
       */
      secreto_anterior_hasta: string | null;
      /**
       * Format: date-time
       * @example 2026-11-28T10:15:00.000-05:00
       */
      created_at: string;
      /**
       * Format: date-time
       * @example 2026-11-28T10:15:00.000-05:00
       */
      updated_at: string;
      /**
       * @description What the caller may do to it now
       * @example [
       *       "editar",
       *       "probar",
       *       "rotar",
       *       "desactivar",
       *       "eliminar"
       *     ]
       */
      acciones: ('editar' | 'probar' | 'rotar' | 'desactivar' | 'activar' | 'eliminar')[];
      /**
       * @description The signing secret: shown in this answer only (at creation and at each rotation). Store it: it cannot be read again
       * @example whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw
       */
      secreto: string;
    };
    UpdateWebhookBody: {
      /** @example https://erp.example.com/hooks/v2 */
      url?: string;
      /**
       * @description Event types (comanda.cerrar) or a module’s wildcard (comanda.*); an unknown one is refused
       * @example [
       *       "comanda.*"
       *     ]
       */
      eventos?: (
        | 'comanda.*'
        | 'pago.*'
        | 'cocina.*'
        | 'sesion_caja.*'
        | 'inventario.*'
        | 'comanda.crear'
        | 'comanda.abrir'
        | 'comanda.cerrar'
        | 'comanda.restaurar'
        | 'comanda.editar'
        | 'comanda.eliminar'
        | 'comanda.agregar_item'
        | 'comanda.modificar_item'
        | 'comanda.quitar_item'
        | 'comanda.dividir'
        | 'comanda.unir'
        | 'comanda.transferir'
        | 'pago.pagar'
        | 'pago.anular_pago'
        | 'pago.reembolsar'
        | 'pago.descontar'
        | 'cocina.enviar'
        | 'cocina.disparar'
        | 'cocina.preparar'
        | 'cocina.listo'
        | 'cocina.recuperar'
        | 'cocina.entregar'
        | 'sesion_caja.abrir'
        | 'sesion_caja.ingreso'
        | 'sesion_caja.retiro'
        | 'sesion_caja.cerrar'
        | 'inventario.merma'
        | 'inventario.conteo_crear'
        | 'inventario.conteo_aplicar'
        | 'inventario.conteo_descartar'
      )[];
      descripcion?: string | null;
      /** @description false: nothing is sent to it (its pending messages wait); true: sent to again, its failure record cleared */
      activo?: boolean;
    };
    IntentoDto: {
      /**
       * Format: date-time
       * @example 2026-11-28T10:15:01.120-05:00
       */
      fec: string;
      /**
       * @description null: no answer
       * @example 503
       */
      status: number | null;
      /** @example HTTP 503 */
      error: string | null;
      /** @example 84 */
      duracion_ms: number;
    };
    EntregaDto: {
      /** @example 1201 */
      id_entrega: number;
      /** @example 3 */
      id_webhook: number;
      /**
       * @description The webhook-id header: the same on every attempt (receivers dedupe by it)
       * @example msg_2b7f0c1e9a3d4c5e8f10a2b3c4d5e6f7
       */
      webhook_id: string;
      /** @example comanda.cerrar */
      tipo: string;
      /**
       * @example entregado
       * @enum {string}
       */
      estado: 'pendiente' | 'entregado' | 'fallido';
      /**
       * @description Attempts since it was queued or last re-sent (historial has every attempt)
       * @example 1
       */
      intentos: number;
      /**
       * Format: date-time
       * @description When the next attempt is due (pendiente only)
       * @example null
       */
      proximo_intento: string | null;
      /** @example 200 */
      ultimo_status: number | null;
      /** @example null */
      ultimo_error: string | null;
      /**
       * Format: date-time
       * @example 2026-11-28T10:15:00.950-05:00
       */
      fec_creacion: string;
      /**
       * Format: date-time
       * @example 2026-11-28T10:15:01.120-05:00
       */
      fec_entrega: string | null;
      /**
       * @description The body sent, as sent on every attempt
       * @example {
       *       "type": "comanda.cerrar",
       *       "timestamp": "2026-11-28T15:15:00.950000Z",
       *       "data": {
       *         "id_comanda": 812,
       *         "version": 7,
       *         "estado": "cerrada",
       *         "total": 86.5
       *       }
       *     }
       */
      cuerpo: {
        [key: string]: unknown;
      };
      /** @description Its attempts, oldest first */
      historial: components['schemas']['IntentoDto'][];
      /**
       * @description What the caller may do to it now
       * @example [
       *       "reenviar"
       *     ]
       */
      acciones: 'reenviar'[];
    };
  };
  responses: never;
  parameters: never;
  requestBodies: never;
  headers: {
    /** @description The id of the request (the caller’s own X-Request-Id when it is a sane token), also in error bodies and in every log line of the request */
    'X-Request-Id': string;
    /** @description Seconds to wait before trying again */
    'Retry-After': number;
    /** @description The language of the error’s text (`error`): `es` when the request’s Accept-Language prefers Spanish (`es`, `es-PE` ...), `en` otherwise. Every other field of the body is the same in both languages; each example shows its Spanish text as `x-error-es` */
    'Content-Language': 'en' | 'es';
    /** @description The Bearer challenge (RFC 6750), with error="invalid_token" when a token was sent */
    'WWW-Authenticate': string;
  };
  pathItems: never;
}
export type $defs = Record<string, never>;
export interface operations {
  TenantController_current_v1: {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description OK */
      200: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['CurrentTenantDto'];
        };
      };
      /** @description Bad request: `TENANT_REQUIRED` No X-Tenant-ID header; `TENANT_INVALID` X-Tenant-ID is not a tenant slug. */
      400: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'Content-Language': components['headers']['Content-Language'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorBody'];
        };
      };
      /** @description Not authenticated: `UNAUTHENTICATED` No token, or a malformed, expired or badly signed one, or not an active user of the tenant (WWW-Authenticate). */
      401: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'Content-Language': components['headers']['Content-Language'];
          'WWW-Authenticate': components['headers']['WWW-Authenticate'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorBody'];
        };
      };
      /** @description Forbidden: `TENANT_MISMATCH` The token was issued for another tenant than X-Tenant-ID; `TENANT_SUSPENDED` The tenant is suspended. */
      403: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'Content-Language': components['headers']['Content-Language'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorBody'];
        };
      };
      /** @description Not found: `TENANT_NOT_FOUND` No tenant has this slug. */
      404: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'Content-Language': components['headers']['Content-Language'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorBody'];
        };
      };
      /** @description Too many requests: `RATE_LIMITED` Past RATE_LIMIT_MAX requests in the window (Retry-After). */
      429: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'Content-Language': components['headers']['Content-Language'];
          'Retry-After': components['headers']['Retry-After'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorBody'];
        };
      };
      /** @description Service unavailable: `TENANT_PROVISIONING` The tenant is still being created (Retry-After); `TENANT_SCHEMA_OUTDATED` The tenant’s database is behind this version of the service: the operator migrates it (Retry-After); `DATABASE_UNAVAILABLE` The tenant database (or the catalog) does not answer (Retry-After); `REQUEST_TIMEOUT` Not answered within REQUEST_TIMEOUT_MS (Retry-After). */
      503: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'Content-Language': components['headers']['Content-Language'];
          'Retry-After': components['headers']['Retry-After'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorBody'];
        };
      };
    };
  };
  MeController_me_v1: {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description The caller */
      200: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['MeDto'];
        };
      };
      /** @description Bad request: `TENANT_REQUIRED` No X-Tenant-ID header; `TENANT_INVALID` X-Tenant-ID is not a tenant slug. */
      400: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'Content-Language': components['headers']['Content-Language'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorBody'];
        };
      };
      /** @description Not authenticated: `UNAUTHENTICATED` No token, or a malformed, expired or badly signed one, or not an active user of the tenant (WWW-Authenticate). */
      401: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'Content-Language': components['headers']['Content-Language'];
          'WWW-Authenticate': components['headers']['WWW-Authenticate'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorBody'];
        };
      };
      /** @description Forbidden: `TENANT_MISMATCH` The token was issued for another tenant than X-Tenant-ID; `TENANT_SUSPENDED` The tenant is suspended. */
      403: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'Content-Language': components['headers']['Content-Language'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorBody'];
        };
      };
      /** @description Not found: `TENANT_NOT_FOUND` No tenant has this slug. */
      404: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'Content-Language': components['headers']['Content-Language'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorBody'];
        };
      };
      /** @description Too many requests: `RATE_LIMITED` Past RATE_LIMIT_MAX requests in the window (Retry-After). */
      429: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'Content-Language': components['headers']['Content-Language'];
          'Retry-After': components['headers']['Retry-After'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorBody'];
        };
      };
      /** @description Service unavailable: `TENANT_PROVISIONING` The tenant is still being created (Retry-After); `TENANT_SCHEMA_OUTDATED` The tenant’s database is behind this version of the service: the operator migrates it (Retry-After); `DATABASE_UNAVAILABLE` The tenant database (or the catalog) does not answer (Retry-After); `REQUEST_TIMEOUT` Not answered within REQUEST_TIMEOUT_MS (Retry-After). */
      503: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'Content-Language': components['headers']['Content-Language'];
          'Retry-After': components['headers']['Retry-After'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorBody'];
        };
      };
    };
  };
  HealthController_health: {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description The control database answers: status ok, or degraded with tenantsDown */
      200: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['HealthReport'];
        };
      };
      /** @description The control database does not answer: the report with status unavailable, and the error and code (`DATABASE_UNAVAILABLE`) of the error envelope (Retry-After) */
      503: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'Retry-After': components['headers']['Retry-After'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['HealthUnavailableReport'];
        };
      };
    };
  };
  ComandaStreamController_stream_v1: {
    parameters: {
      query?: {
        /** @description Only events of comandas at this table (now, or before the change) */
        id_mesa?: number;
        /** @description Only events of comandas in this estado (now, or before the change) */
        estado?: 'abierta' | 'cerrada';
        /** @description Resume after this event id (for clients that cannot send the Last-Event-ID header) */
        lastEventId?: number;
        /** @description For EventSource (no headers): the tenant, when X-Tenant-ID cannot be sent (with Accept: text/event-stream) */
        tenant?: string;
        /** @description With AUTH_MODE=jwt, for EventSource (no headers): a token expiring within 5 minutes. Never logged. */
        access_token?: string;
      };
      header?: {
        /** @description The last event id received: the stream resumes after it */
        'Last-Event-ID'?: string;
      };
      path?: never;
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description The stream (text/event-stream), open until the client or the service ends it. The schema is the one of the `data:` of each `event: comanda` (a ComandaStreamEvent). */
      200: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          [name: string]: unknown;
        };
        content: {
          'text/event-stream': components['schemas']['ComandaStreamEvent'];
        };
      };
      /** @description Bad request: `VALIDATION_FAILED` A field or parameter is missing, unknown or of the wrong type or range: one message per field; `INVALID_LAST_EVENT_ID` Last-Event-ID is not an event id (a non-negative integer); `TENANT_REQUIRED` No X-Tenant-ID header; `TENANT_INVALID` X-Tenant-ID is not a tenant slug. */
      400: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'Content-Language': components['headers']['Content-Language'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorBody'];
        };
      };
      /** @description Not authenticated: `UNAUTHENTICATED` No token, or a malformed, expired or badly signed one, or not an active user of the tenant (WWW-Authenticate). */
      401: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'Content-Language': components['headers']['Content-Language'];
          'WWW-Authenticate': components['headers']['WWW-Authenticate'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorBody'];
        };
      };
      /** @description Forbidden: `TENANT_MISMATCH` The token was issued for another tenant than X-Tenant-ID; `FORBIDDEN` The user's roles do not give the permission the route needs; `TENANT_SUSPENDED` The tenant is suspended. */
      403: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'Content-Language': components['headers']['Content-Language'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorBody'];
        };
      };
      /** @description Not found: `TENANT_NOT_FOUND` No tenant has this slug. */
      404: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'Content-Language': components['headers']['Content-Language'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorBody'];
        };
      };
      /** @description Too many requests: `TOO_MANY_STREAMS` The tenant's (SSE_MAX_PER_TENANT) or the user's (SSE_MAX_PER_USER) share of the instance's live streams is taken (Retry-After); `RATE_LIMITED` Past RATE_LIMIT_MAX requests in the window (Retry-After). */
      429: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'Content-Language': components['headers']['Content-Language'];
          'Retry-After': components['headers']['Retry-After'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorBody'];
        };
      };
      /** @description Service unavailable: `TOO_MANY_STREAMS` This instance serves SSE_MAX_CLIENTS live streams already (Retry-After): another instance may not; `TENANT_PROVISIONING` The tenant is still being created (Retry-After); `TENANT_SCHEMA_OUTDATED` The tenant’s database is behind this version of the service: the operator migrates it (Retry-After); `DATABASE_UNAVAILABLE` The tenant database (or the catalog) does not answer (Retry-After). */
      503: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'Content-Language': components['headers']['Content-Language'];
          'Retry-After': components['headers']['Retry-After'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorBody'];
        };
      };
    };
  };
  ComandasController_list_v1: {
    parameters: {
      query?: {
        /** @description Only comandas in this estado */
        estado?: 'abierta' | 'cerrada';
        /** @description Only comandas of this table */
        id_mesa?: number;
        /** @description Only comandas of this waiter */
        id_usuario?: number;
        /** @description Opened on or after this business day (YYYY-MM-DD, tenant time zone) */
        desde?: string;
        /** @description Opened on or before this business day (YYYY-MM-DD, tenant time zone) */
        hasta?: string;
        /** @description true: only the logically deleted comandas; false (default): only the others */
        eliminada?: boolean;
        /** @description Page size (above the maximum is 400, not cut) */
        limit?: number;
        /** @description Comandas skipped before the page */
        offset?: number;
      };
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description A page of comandas */
      200: {
        headers: {
          /** @description Comandas matching the filters, whatever the page */
          'X-Total-Count'?: number;
          'X-Request-Id': components['headers']['X-Request-Id'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ComandaSummary'][];
        };
      };
      /** @description Bad request: `VALIDATION_FAILED` A field or parameter is missing, unknown or of the wrong type or range: one message per field; `TENANT_REQUIRED` No X-Tenant-ID header; `TENANT_INVALID` X-Tenant-ID is not a tenant slug. */
      400: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'Content-Language': components['headers']['Content-Language'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorBody'];
        };
      };
      /** @description Not authenticated: `UNAUTHENTICATED` No token, or a malformed, expired or badly signed one, or not an active user of the tenant (WWW-Authenticate). */
      401: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'Content-Language': components['headers']['Content-Language'];
          'WWW-Authenticate': components['headers']['WWW-Authenticate'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorBody'];
        };
      };
      /** @description Forbidden: `TENANT_MISMATCH` The token was issued for another tenant than X-Tenant-ID; `FORBIDDEN` The user's roles do not give the permission the route needs; `TENANT_SUSPENDED` The tenant is suspended. */
      403: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'Content-Language': components['headers']['Content-Language'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorBody'];
        };
      };
      /** @description Not found: `TENANT_NOT_FOUND` No tenant has this slug. */
      404: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'Content-Language': components['headers']['Content-Language'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorBody'];
        };
      };
      /** @description Too many requests: `RATE_LIMITED` Past RATE_LIMIT_MAX requests in the window (Retry-After). */
      429: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'Content-Language': components['headers']['Content-Language'];
          'Retry-After': components['headers']['Retry-After'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorBody'];
        };
      };
      /** @description Service unavailable: `57014` A statement ran longer than DB_STATEMENT_TIMEOUT_MS and was cancelled (Retry-After); `TENANT_PROVISIONING` The tenant is still being created (Retry-After); `TENANT_SCHEMA_OUTDATED` The tenant’s database is behind this version of the service: the operator migrates it (Retry-After); `DATABASE_UNAVAILABLE` The tenant database (or the catalog) does not answer (Retry-After); `REQUEST_TIMEOUT` Not answered within REQUEST_TIMEOUT_MS (Retry-After). */
      503: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'Content-Language': components['headers']['Content-Language'];
          'Retry-After': components['headers']['Retry-After'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorBody'];
        };
      };
    };
  };
  ComandasController_create_v1: {
    parameters: {
      query?: never;
      header?: {
        /** @description Makes a retry safe: the same key with the same request within IDEMPOTENCY_TTL_HOURS answers what the first answered (with Idempotent-Replayed: true) and does nothing again. 1 to 255 visible ASCII characters, one per intended change (a UUID). */
        'Idempotency-Key'?: string;
      };
      path?: never;
      cookie?: never;
    };
    requestBody: {
      content: {
        'application/json': components['schemas']['CreateComandaBody'];
      };
    };
    responses: {
      /** @description The new comanda, abierta, version 1 */
      201: {
        headers: {
          /** @description The version, quoted ("3"): send it back in If-Match */
          ETag?: string;
          /** @description The path of the new comanda */
          Location?: string;
          'X-Request-Id': components['headers']['X-Request-Id'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ComandaDetail'];
        };
      };
      /** @description Bad request: `IDEMPOTENCY_KEY_INVALID` Idempotency-Key is empty, longer than 255 characters, not visible ASCII, or sent twice; `VALIDATION_FAILED` A field or parameter is missing, unknown or of the wrong type or range: one message per field; `PRODUCT_NOT_FOUND` A line names a product that does not exist; `PRODUCT_INACTIVE` A line names a product that is not on sale; `23503` An id that does not exist (table, waiter, customer, referenced row): PostgreSQL’s detail, the column and the constraint; `TENANT_REQUIRED` No X-Tenant-ID header; `TENANT_INVALID` X-Tenant-ID is not a tenant slug; `INVALID_BODY` The JSON body is not an object (a string, a number, null, an array); `BAD_REQUEST` The body is not valid JSON. */
      400: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'Content-Language': components['headers']['Content-Language'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorBody'];
        };
      };
      /** @description Not authenticated: `UNAUTHENTICATED` No token, or a malformed, expired or badly signed one, or not an active user of the tenant (WWW-Authenticate). */
      401: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'Content-Language': components['headers']['Content-Language'];
          'WWW-Authenticate': components['headers']['WWW-Authenticate'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorBody'];
        };
      };
      /** @description Forbidden: `TENANT_MISMATCH` The token was issued for another tenant than X-Tenant-ID; `FORBIDDEN` The user's roles do not give the permission the route needs; `TENANT_SUSPENDED` The tenant is suspended. */
      403: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'Content-Language': components['headers']['Content-Language'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorBody'];
        };
      };
      /** @description Not found: `TENANT_NOT_FOUND` No tenant has this slug. */
      404: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'Content-Language': components['headers']['Content-Language'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorBody'];
        };
      };
      /** @description Conflict: `IDEMPOTENCY_KEY_IN_USE` A request with this Idempotency-Key is still running: retry after Retry-After seconds. */
      409: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'Content-Language': components['headers']['Content-Language'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorBody'];
        };
      };
      /** @description Payload too large: `PAYLOAD_TOO_LARGE` The body is larger than BODY_LIMIT (a file: UPLOAD_MAX_BYTES). */
      413: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'Content-Language': components['headers']['Content-Language'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorBody'];
        };
      };
      /** @description Unsupported media type: `UNSUPPORTED_MEDIA_TYPE` The body came with another Content-Type than the route reads. */
      415: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'Content-Language': components['headers']['Content-Language'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorBody'];
        };
      };
      /** @description Unprocessable content: `IDEMPOTENCY_KEY_REUSED` This Idempotency-Key was used for another request (method, route, ids or body). */
      422: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'Content-Language': components['headers']['Content-Language'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorBody'];
        };
      };
      /** @description Too many requests: `RATE_LIMITED` Past RATE_LIMIT_MAX requests in the window (Retry-After). */
      429: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'Content-Language': components['headers']['Content-Language'];
          'Retry-After': components['headers']['Retry-After'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorBody'];
        };
      };
      /** @description Service unavailable: `57014` A statement ran longer than DB_STATEMENT_TIMEOUT_MS and was cancelled (Retry-After); `TENANT_PROVISIONING` The tenant is still being created (Retry-After); `TENANT_SCHEMA_OUTDATED` The tenant’s database is behind this version of the service: the operator migrates it (Retry-After); `DATABASE_UNAVAILABLE` The tenant database (or the catalog) does not answer (Retry-After); `REQUEST_TIMEOUT` Not answered within REQUEST_TIMEOUT_MS (Retry-After). */
      503: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'Content-Language': components['headers']['Content-Language'];
          'Retry-After': components['headers']['Retry-After'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorBody'];
        };
      };
    };
  };
  ComandasController_get_v1: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        /** @description A positive integer id */
        id: number;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description The comanda */
      200: {
        headers: {
          /** @description The version, quoted ("3"): send it back in If-Match */
          ETag?: string;
          'X-Request-Id': components['headers']['X-Request-Id'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ComandaDetail'];
        };
      };
      /** @description Bad request: `TENANT_REQUIRED` No X-Tenant-ID header; `TENANT_INVALID` X-Tenant-ID is not a tenant slug; `INVALID_ID` A path id is not a positive integer of its range. */
      400: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'Content-Language': components['headers']['Content-Language'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorBody'];
        };
      };
      /** @description Not authenticated: `UNAUTHENTICATED` No token, or a malformed, expired or badly signed one, or not an active user of the tenant (WWW-Authenticate). */
      401: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'Content-Language': components['headers']['Content-Language'];
          'WWW-Authenticate': components['headers']['WWW-Authenticate'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorBody'];
        };
      };
      /** @description Forbidden: `TENANT_MISMATCH` The token was issued for another tenant than X-Tenant-ID; `FORBIDDEN` The user's roles do not give the permission the route needs; `TENANT_SUSPENDED` The tenant is suspended. */
      403: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'Content-Language': components['headers']['Content-Language'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorBody'];
        };
      };
      /** @description Not found: `COMANDA_NOT_FOUND` No comanda has this id; `TENANT_NOT_FOUND` No tenant has this slug. */
      404: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'Content-Language': components['headers']['Content-Language'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorBody'];
        };
      };
      /** @description Too many requests: `RATE_LIMITED` Past RATE_LIMIT_MAX requests in the window (Retry-After). */
      429: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'Content-Language': components['headers']['Content-Language'];
          'Retry-After': components['headers']['Retry-After'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorBody'];
        };
      };
      /** @description Service unavailable: `57014` A statement ran longer than DB_STATEMENT_TIMEOUT_MS and was cancelled (Retry-After); `TENANT_PROVISIONING` The tenant is still being created (Retry-After); `TENANT_SCHEMA_OUTDATED` The tenant’s database is behind this version of the service: the operator migrates it (Retry-After); `DATABASE_UNAVAILABLE` The tenant database (or the catalog) does not answer (Retry-After); `REQUEST_TIMEOUT` Not answered within REQUEST_TIMEOUT_MS (Retry-After). */
      503: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'Content-Language': components['headers']['Content-Language'];
          'Retry-After': components['headers']['Retry-After'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorBody'];
        };
      };
    };
  };
  ComandasController_update_v1: {
    parameters: {
      query?: never;
      header?: {
        /** @description The ETag of the resource as last read ("3"): 412 STALE_VERSION when it changed since */
        'If-Match'?: string;
        /** @description Makes a retry safe: the same key with the same request within IDEMPOTENCY_TTL_HOURS answers what the first answered (with Idempotent-Replayed: true) and does nothing again. 1 to 255 visible ASCII characters, one per intended change (a UUID). */
        'Idempotency-Key'?: string;
      };
      path: {
        /** @description A positive integer id */
        id: number;
      };
      cookie?: never;
    };
    requestBody: {
      content: {
        'application/json': components['schemas']['UpdateComandaBody'];
      };
    };
    responses: {
      /** @description The comanda as changed */
      200: {
        headers: {
          /** @description The version, quoted ("3"): send it back in If-Match */
          ETag?: string;
          'X-Request-Id': components['headers']['X-Request-Id'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ComandaDetail'];
        };
      };
      /** @description Bad request: `IDEMPOTENCY_KEY_INVALID` Idempotency-Key is empty, longer than 255 characters, not visible ASCII, or sent twice; `ACTION_WITH_FIELDS` An action sent together with field changes; `EMPTY_CHANGE` Nothing to change; `VALIDATION_FAILED` A field or parameter is missing, unknown or of the wrong type or range: one message per field; `23503` An id that does not exist (table, waiter, customer, referenced row): PostgreSQL’s detail, the column and the constraint; `PAGOS_WITHOUT_CERRAR` pagos goes with the action cerrar only; `METODO_PAGO_NOT_FOUND` id_metodo_pago names no method in use; `TENANT_REQUIRED` No X-Tenant-ID header; `TENANT_INVALID` X-Tenant-ID is not a tenant slug; `INVALID_BODY` The JSON body is not an object (a string, a number, null, an array); `BAD_REQUEST` The body is not valid JSON; `INVALID_IF_MATCH` If-Match is not an ETag such as "3"; `INVALID_ID` A path id is not a positive integer of its range. */
      400: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'Content-Language': components['headers']['Content-Language'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorBody'];
        };
      };
      /** @description Not authenticated: `UNAUTHENTICATED` No token, or a malformed, expired or badly signed one, or not an active user of the tenant (WWW-Authenticate). */
      401: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'Content-Language': components['headers']['Content-Language'];
          'WWW-Authenticate': components['headers']['WWW-Authenticate'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorBody'];
        };
      };
      /** @description Forbidden: `TENANT_MISMATCH` The token was issued for another tenant than X-Tenant-ID; `FORBIDDEN` The user's roles do not give the permission the route needs; `TENANT_SUSPENDED` The tenant is suspended. */
      403: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'Content-Language': components['headers']['Content-Language'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorBody'];
        };
      };
      /** @description Not found: `COMANDA_NOT_FOUND` No comanda has this id; `TENANT_NOT_FOUND` No tenant has this slug. */
      404: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'Content-Language': components['headers']['Content-Language'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorBody'];
        };
      };
      /** @description Conflict: `IDEMPOTENCY_KEY_IN_USE` A request with this Idempotency-Key is still running: retry after Retry-After seconds; `INVALID_TRANSITION` Not allowed in the comanda’s current state (detail.estado); `COMANDA_EMPTY` A comanda without lines cannot be closed; `SALDO_PENDIENTE` The applied payments do not equal the amount due; `SIN_SESION_ABIERTA` No open till session takes the money; `PAGO_EXCEDE_SALDO` Not cash, above the balance (or nothing is due); `SESION_CERRADA` The session is closed: it never changes; `COMANDA_REEMBOLSADA` A comanda with refunds is not reopened. */
      409: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'Content-Language': components['headers']['Content-Language'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorBody'];
        };
      };
      /** @description Precondition failed: `STALE_VERSION` If-Match names another version than the current one. */
      412: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'Content-Language': components['headers']['Content-Language'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorBody'];
        };
      };
      /** @description Payload too large: `PAYLOAD_TOO_LARGE` The body is larger than BODY_LIMIT (a file: UPLOAD_MAX_BYTES). */
      413: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'Content-Language': components['headers']['Content-Language'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorBody'];
        };
      };
      /** @description Unsupported media type: `UNSUPPORTED_MEDIA_TYPE` The body came with another Content-Type than the route reads. */
      415: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'Content-Language': components['headers']['Content-Language'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorBody'];
        };
      };
      /** @description Unprocessable content: `IDEMPOTENCY_KEY_REUSED` This Idempotency-Key was used for another request (method, route, ids or body). */
      422: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'Content-Language': components['headers']['Content-Language'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorBody'];
        };
      };
      /** @description Too many requests: `RATE_LIMITED` Past RATE_LIMIT_MAX requests in the window (Retry-After). */
      429: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'Content-Language': components['headers']['Content-Language'];
          'Retry-After': components['headers']['Retry-After'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorBody'];
        };
      };
      /** @description Service unavailable: `57014` A statement ran longer than DB_STATEMENT_TIMEOUT_MS and was cancelled (Retry-After); `TENANT_PROVISIONING` The tenant is still being created (Retry-After); `TENANT_SCHEMA_OUTDATED` The tenant’s database is behind this version of the service: the operator migrates it (Retry-After); `DATABASE_UNAVAILABLE` The tenant database (or the catalog) does not answer (Retry-After); `REQUEST_TIMEOUT` Not answered within REQUEST_TIMEOUT_MS (Retry-After). */
      503: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'Content-Language': components['headers']['Content-Language'];
          'Retry-After': components['headers']['Retry-After'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorBody'];
        };
      };
    };
  };
  ComandasController_remove_v1: {
    parameters: {
      query?: {
        /** @description Reason kept in the audit trail (or motivo in the body) */
        motivo?: string;
      };
      header?: {
        /** @description The ETag of the resource as last read ("3"): 412 STALE_VERSION when it changed since */
        'If-Match'?: string;
        /** @description Makes a retry safe: the same key with the same request within IDEMPOTENCY_TTL_HOURS answers what the first answered (with Idempotent-Replayed: true) and does nothing again. 1 to 255 visible ASCII characters, one per intended change (a UUID). */
        'Idempotency-Key'?: string;
      };
      path: {
        /** @description A positive integer id */
        id: number;
      };
      cookie?: never;
    };
    requestBody?: {
      content: {
        'application/json': components['schemas']['DeleteComandaBody'];
      };
    };
    responses: {
      /** @description The comanda, eliminada */
      200: {
        headers: {
          /** @description The version, quoted ("3"): send it back in If-Match */
          ETag?: string;
          'X-Request-Id': components['headers']['X-Request-Id'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ComandaDetail'];
        };
      };
      /** @description Bad request: `IDEMPOTENCY_KEY_INVALID` Idempotency-Key is empty, longer than 255 characters, not visible ASCII, or sent twice; `VALIDATION_FAILED` A field or parameter is missing, unknown or of the wrong type or range: one message per field; `TENANT_REQUIRED` No X-Tenant-ID header; `TENANT_INVALID` X-Tenant-ID is not a tenant slug; `INVALID_BODY` The JSON body is not an object (a string, a number, null, an array); `BAD_REQUEST` The body is not valid JSON; `INVALID_IF_MATCH` If-Match is not an ETag such as "3"; `INVALID_ID` A path id is not a positive integer of its range. */
      400: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'Content-Language': components['headers']['Content-Language'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorBody'];
        };
      };
      /** @description Not authenticated: `UNAUTHENTICATED` No token, or a malformed, expired or badly signed one, or not an active user of the tenant (WWW-Authenticate). */
      401: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'Content-Language': components['headers']['Content-Language'];
          'WWW-Authenticate': components['headers']['WWW-Authenticate'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorBody'];
        };
      };
      /** @description Forbidden: `TENANT_MISMATCH` The token was issued for another tenant than X-Tenant-ID; `FORBIDDEN` The user's roles do not give the permission the route needs; `TENANT_SUSPENDED` The tenant is suspended. */
      403: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'Content-Language': components['headers']['Content-Language'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorBody'];
        };
      };
      /** @description Not found: `COMANDA_NOT_FOUND` No comanda has this id; `TENANT_NOT_FOUND` No tenant has this slug. */
      404: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'Content-Language': components['headers']['Content-Language'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorBody'];
        };
      };
      /** @description Conflict: `IDEMPOTENCY_KEY_IN_USE` A request with this Idempotency-Key is still running: retry after Retry-After seconds; `INVALID_TRANSITION` Already eliminada; `COMANDA_CON_PAGOS` The comanda has applied payments (void them first). */
      409: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'Content-Language': components['headers']['Content-Language'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorBody'];
        };
      };
      /** @description Precondition failed: `STALE_VERSION` If-Match names another version than the current one. */
      412: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'Content-Language': components['headers']['Content-Language'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorBody'];
        };
      };
      /** @description Payload too large: `PAYLOAD_TOO_LARGE` The body is larger than BODY_LIMIT (a file: UPLOAD_MAX_BYTES). */
      413: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'Content-Language': components['headers']['Content-Language'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorBody'];
        };
      };
      /** @description Unsupported media type: `UNSUPPORTED_MEDIA_TYPE` The body came with another Content-Type than the route reads. */
      415: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'Content-Language': components['headers']['Content-Language'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorBody'];
        };
      };
      /** @description Unprocessable content: `IDEMPOTENCY_KEY_REUSED` This Idempotency-Key was used for another request (method, route, ids or body). */
      422: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'Content-Language': components['headers']['Content-Language'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorBody'];
        };
      };
      /** @description Too many requests: `RATE_LIMITED` Past RATE_LIMIT_MAX requests in the window (Retry-After). */
      429: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'Content-Language': components['headers']['Content-Language'];
          'Retry-After': components['headers']['Retry-After'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorBody'];
        };
      };
      /** @description Service unavailable: `57014` A statement ran longer than DB_STATEMENT_TIMEOUT_MS and was cancelled (Retry-After); `TENANT_PROVISIONING` The tenant is still being created (Retry-After); `TENANT_SCHEMA_OUTDATED` The tenant’s database is behind this version of the service: the operator migrates it (Retry-After); `DATABASE_UNAVAILABLE` The tenant database (or the catalog) does not answer (Retry-After); `REQUEST_TIMEOUT` Not answered within REQUEST_TIMEOUT_MS (Retry-After). */
      503: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'Content-Language': components['headers']['Content-Language'];
          'Retry-After': components['headers']['Retry-After'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorBody'];
        };
      };
    };
  };
  ComandasController_events_v1: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        /** @description A positive integer id */
        id: number;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description The events, oldest first */
      200: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ComandaEvento'][];
        };
      };
      /** @description Bad request: `TENANT_REQUIRED` No X-Tenant-ID header; `TENANT_INVALID` X-Tenant-ID is not a tenant slug; `INVALID_ID` A path id is not a positive integer of its range. */
      400: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'Content-Language': components['headers']['Content-Language'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorBody'];
        };
      };
      /** @description Not authenticated: `UNAUTHENTICATED` No token, or a malformed, expired or badly signed one, or not an active user of the tenant (WWW-Authenticate). */
      401: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'Content-Language': components['headers']['Content-Language'];
          'WWW-Authenticate': components['headers']['WWW-Authenticate'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorBody'];
        };
      };
      /** @description Forbidden: `TENANT_MISMATCH` The token was issued for another tenant than X-Tenant-ID; `FORBIDDEN` The user's roles do not give the permission the route needs; `TENANT_SUSPENDED` The tenant is suspended. */
      403: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'Content-Language': components['headers']['Content-Language'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorBody'];
        };
      };
      /** @description Not found: `COMANDA_NOT_FOUND` No comanda has this id; `TENANT_NOT_FOUND` No tenant has this slug. */
      404: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'Content-Language': components['headers']['Content-Language'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorBody'];
        };
      };
      /** @description Too many requests: `RATE_LIMITED` Past RATE_LIMIT_MAX requests in the window (Retry-After). */
      429: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'Content-Language': components['headers']['Content-Language'];
          'Retry-After': components['headers']['Retry-After'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorBody'];
        };
      };
      /** @description Service unavailable: `57014` A statement ran longer than DB_STATEMENT_TIMEOUT_MS and was cancelled (Retry-After); `TENANT_PROVISIONING` The tenant is still being created (Retry-After); `TENANT_SCHEMA_OUTDATED` The tenant’s database is behind this version of the service: the operator migrates it (Retry-After); `DATABASE_UNAVAILABLE` The tenant database (or the catalog) does not answer (Retry-After); `REQUEST_TIMEOUT` Not answered within REQUEST_TIMEOUT_MS (Retry-After). */
      503: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'Content-Language': components['headers']['Content-Language'];
          'Retry-After': components['headers']['Retry-After'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorBody'];
        };
      };
    };
  };
  ComandasController_addItem_v1: {
    parameters: {
      query?: never;
      header?: {
        /** @description The ETag of the resource as last read ("3"): 412 STALE_VERSION when it changed since */
        'If-Match'?: string;
        /** @description Makes a retry safe: the same key with the same request within IDEMPOTENCY_TTL_HOURS answers what the first answered (with Idempotent-Replayed: true) and does nothing again. 1 to 255 visible ASCII characters, one per intended change (a UUID). */
        'Idempotency-Key'?: string;
      };
      path: {
        /** @description A positive integer id */
        id: number;
      };
      cookie?: never;
    };
    requestBody: {
      content: {
        'application/json': components['schemas']['ItemInput'];
      };
    };
    responses: {
      /** @description The comanda with the new line */
      201: {
        headers: {
          /** @description The version, quoted ("3"): send it back in If-Match */
          ETag?: string;
          'X-Request-Id': components['headers']['X-Request-Id'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ComandaDetail'];
        };
      };
      /** @description Bad request: `IDEMPOTENCY_KEY_INVALID` Idempotency-Key is empty, longer than 255 characters, not visible ASCII, or sent twice; `PRODUCT_NOT_FOUND` A line names a product that does not exist; `PRODUCT_INACTIVE` A line names a product that is not on sale; `VALIDATION_FAILED` A field or parameter is missing, unknown or of the wrong type or range: one message per field; `23503` An id that does not exist (table, waiter, customer, referenced row): PostgreSQL’s detail, the column and the constraint; `TENANT_REQUIRED` No X-Tenant-ID header; `TENANT_INVALID` X-Tenant-ID is not a tenant slug; `INVALID_BODY` The JSON body is not an object (a string, a number, null, an array); `BAD_REQUEST` The body is not valid JSON; `INVALID_IF_MATCH` If-Match is not an ETag such as "3"; `INVALID_ID` A path id is not a positive integer of its range. */
      400: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'Content-Language': components['headers']['Content-Language'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorBody'];
        };
      };
      /** @description Not authenticated: `UNAUTHENTICATED` No token, or a malformed, expired or badly signed one, or not an active user of the tenant (WWW-Authenticate). */
      401: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'Content-Language': components['headers']['Content-Language'];
          'WWW-Authenticate': components['headers']['WWW-Authenticate'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorBody'];
        };
      };
      /** @description Forbidden: `TENANT_MISMATCH` The token was issued for another tenant than X-Tenant-ID; `FORBIDDEN` The user's roles do not give the permission the route needs; `TENANT_SUSPENDED` The tenant is suspended. */
      403: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'Content-Language': components['headers']['Content-Language'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorBody'];
        };
      };
      /** @description Not found: `COMANDA_NOT_FOUND` No comanda has this id; `TENANT_NOT_FOUND` No tenant has this slug. */
      404: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'Content-Language': components['headers']['Content-Language'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorBody'];
        };
      };
      /** @description Conflict: `IDEMPOTENCY_KEY_IN_USE` A request with this Idempotency-Key is still running: retry after Retry-After seconds; `INVALID_TRANSITION` The comanda is not abierta. */
      409: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'Content-Language': components['headers']['Content-Language'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorBody'];
        };
      };
      /** @description Precondition failed: `STALE_VERSION` If-Match names another version than the current one. */
      412: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'Content-Language': components['headers']['Content-Language'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorBody'];
        };
      };
      /** @description Payload too large: `PAYLOAD_TOO_LARGE` The body is larger than BODY_LIMIT (a file: UPLOAD_MAX_BYTES). */
      413: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'Content-Language': components['headers']['Content-Language'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorBody'];
        };
      };
      /** @description Unsupported media type: `UNSUPPORTED_MEDIA_TYPE` The body came with another Content-Type than the route reads. */
      415: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'Content-Language': components['headers']['Content-Language'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorBody'];
        };
      };
      /** @description Unprocessable content: `IDEMPOTENCY_KEY_REUSED` This Idempotency-Key was used for another request (method, route, ids or body). */
      422: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'Content-Language': components['headers']['Content-Language'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorBody'];
        };
      };
      /** @description Too many requests: `RATE_LIMITED` Past RATE_LIMIT_MAX requests in the window (Retry-After). */
      429: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'Content-Language': components['headers']['Content-Language'];
          'Retry-After': components['headers']['Retry-After'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorBody'];
        };
      };
      /** @description Service unavailable: `57014` A statement ran longer than DB_STATEMENT_TIMEOUT_MS and was cancelled (Retry-After); `TENANT_PROVISIONING` The tenant is still being created (Retry-After); `TENANT_SCHEMA_OUTDATED` The tenant’s database is behind this version of the service: the operator migrates it (Retry-After); `DATABASE_UNAVAILABLE` The tenant database (or the catalog) does not answer (Retry-After); `REQUEST_TIMEOUT` Not answered within REQUEST_TIMEOUT_MS (Retry-After). */
      503: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'Content-Language': components['headers']['Content-Language'];
          'Retry-After': components['headers']['Retry-After'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorBody'];
        };
      };
    };
  };
  ComandasController_removeItem_v1: {
    parameters: {
      query?: {
        /** @description Reason kept in the audit trail (or motivo in the body) */
        motivo?: string;
      };
      header?: {
        /** @description The ETag of the resource as last read ("3"): 412 STALE_VERSION when it changed since */
        'If-Match'?: string;
        /** @description Makes a retry safe: the same key with the same request within IDEMPOTENCY_TTL_HOURS answers what the first answered (with Idempotent-Replayed: true) and does nothing again. 1 to 255 visible ASCII characters, one per intended change (a UUID). */
        'Idempotency-Key'?: string;
      };
      path: {
        /** @description A positive integer id */
        id: number;
        /** @description A positive integer id */
        itemId: number;
      };
      cookie?: never;
    };
    requestBody?: {
      content: {
        'application/json': components['schemas']['DeleteComandaBody'];
      };
    };
    responses: {
      /** @description The comanda without the line */
      200: {
        headers: {
          /** @description The version, quoted ("3"): send it back in If-Match */
          ETag?: string;
          'X-Request-Id': components['headers']['X-Request-Id'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ComandaDetail'];
        };
      };
      /** @description Bad request: `IDEMPOTENCY_KEY_INVALID` Idempotency-Key is empty, longer than 255 characters, not visible ASCII, or sent twice; `VALIDATION_FAILED` A field or parameter is missing, unknown or of the wrong type or range: one message per field; `TENANT_REQUIRED` No X-Tenant-ID header; `TENANT_INVALID` X-Tenant-ID is not a tenant slug; `INVALID_BODY` The JSON body is not an object (a string, a number, null, an array); `BAD_REQUEST` The body is not valid JSON; `INVALID_IF_MATCH` If-Match is not an ETag such as "3"; `INVALID_ID` A path id is not a positive integer of its range; `INVALID_ID` A path id is not a positive integer of its range. */
      400: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'Content-Language': components['headers']['Content-Language'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorBody'];
        };
      };
      /** @description Not authenticated: `UNAUTHENTICATED` No token, or a malformed, expired or badly signed one, or not an active user of the tenant (WWW-Authenticate). */
      401: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'Content-Language': components['headers']['Content-Language'];
          'WWW-Authenticate': components['headers']['WWW-Authenticate'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorBody'];
        };
      };
      /** @description Forbidden: `TENANT_MISMATCH` The token was issued for another tenant than X-Tenant-ID; `FORBIDDEN` The user's roles do not give the permission the route needs; `TENANT_SUSPENDED` The tenant is suspended. */
      403: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'Content-Language': components['headers']['Content-Language'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorBody'];
        };
      };
      /** @description Not found: `COMANDA_NOT_FOUND` No comanda has this id; `ITEM_NOT_FOUND` The comanda has no line with this id; `TENANT_NOT_FOUND` No tenant has this slug. */
      404: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'Content-Language': components['headers']['Content-Language'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorBody'];
        };
      };
      /** @description Conflict: `IDEMPOTENCY_KEY_IN_USE` A request with this Idempotency-Key is still running: retry after Retry-After seconds; `INVALID_TRANSITION` The comanda is not abierta. */
      409: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'Content-Language': components['headers']['Content-Language'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorBody'];
        };
      };
      /** @description Precondition failed: `STALE_VERSION` If-Match names another version than the current one. */
      412: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'Content-Language': components['headers']['Content-Language'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorBody'];
        };
      };
      /** @description Payload too large: `PAYLOAD_TOO_LARGE` The body is larger than BODY_LIMIT (a file: UPLOAD_MAX_BYTES). */
      413: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'Content-Language': components['headers']['Content-Language'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorBody'];
        };
      };
      /** @description Unsupported media type: `UNSUPPORTED_MEDIA_TYPE` The body came with another Content-Type than the route reads. */
      415: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'Content-Language': components['headers']['Content-Language'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorBody'];
        };
      };
      /** @description Unprocessable content: `IDEMPOTENCY_KEY_REUSED` This Idempotency-Key was used for another request (method, route, ids or body). */
      422: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'Content-Language': components['headers']['Content-Language'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorBody'];
        };
      };
      /** @description Too many requests: `RATE_LIMITED` Past RATE_LIMIT_MAX requests in the window (Retry-After). */
      429: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'Content-Language': components['headers']['Content-Language'];
          'Retry-After': components['headers']['Retry-After'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorBody'];
        };
      };
      /** @description Service unavailable: `57014` A statement ran longer than DB_STATEMENT_TIMEOUT_MS and was cancelled (Retry-After); `TENANT_PROVISIONING` The tenant is still being created (Retry-After); `TENANT_SCHEMA_OUTDATED` The tenant’s database is behind this version of the service: the operator migrates it (Retry-After); `DATABASE_UNAVAILABLE` The tenant database (or the catalog) does not answer (Retry-After); `REQUEST_TIMEOUT` Not answered within REQUEST_TIMEOUT_MS (Retry-After). */
      503: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'Content-Language': components['headers']['Content-Language'];
          'Retry-After': components['headers']['Retry-After'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorBody'];
        };
      };
    };
  };
  ComandasController_changeItem_v1: {
    parameters: {
      query?: never;
      header?: {
        /** @description The ETag of the resource as last read ("3"): 412 STALE_VERSION when it changed since */
        'If-Match'?: string;
        /** @description Makes a retry safe: the same key with the same request within IDEMPOTENCY_TTL_HOURS answers what the first answered (with Idempotent-Replayed: true) and does nothing again. 1 to 255 visible ASCII characters, one per intended change (a UUID). */
        'Idempotency-Key'?: string;
      };
      path: {
        /** @description A positive integer id */
        id: number;
        /** @description A positive integer id */
        itemId: number;
      };
      cookie?: never;
    };
    requestBody: {
      content: {
        'application/json': components['schemas']['ItemChange'];
      };
    };
    responses: {
      /** @description The comanda as changed */
      200: {
        headers: {
          /** @description The version, quoted ("3"): send it back in If-Match */
          ETag?: string;
          'X-Request-Id': components['headers']['X-Request-Id'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ComandaDetail'];
        };
      };
      /** @description Bad request: `IDEMPOTENCY_KEY_INVALID` Idempotency-Key is empty, longer than 255 characters, not visible ASCII, or sent twice; `VALIDATION_FAILED` A field or parameter is missing, unknown or of the wrong type or range: one message per field; `EMPTY_CHANGE` Nothing to change; `TENANT_REQUIRED` No X-Tenant-ID header; `TENANT_INVALID` X-Tenant-ID is not a tenant slug; `INVALID_BODY` The JSON body is not an object (a string, a number, null, an array); `BAD_REQUEST` The body is not valid JSON; `INVALID_IF_MATCH` If-Match is not an ETag such as "3"; `INVALID_ID` A path id is not a positive integer of its range; `INVALID_ID` A path id is not a positive integer of its range. */
      400: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'Content-Language': components['headers']['Content-Language'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorBody'];
        };
      };
      /** @description Not authenticated: `UNAUTHENTICATED` No token, or a malformed, expired or badly signed one, or not an active user of the tenant (WWW-Authenticate). */
      401: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'Content-Language': components['headers']['Content-Language'];
          'WWW-Authenticate': components['headers']['WWW-Authenticate'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorBody'];
        };
      };
      /** @description Forbidden: `TENANT_MISMATCH` The token was issued for another tenant than X-Tenant-ID; `FORBIDDEN` The user's roles do not give the permission the route needs; `TENANT_SUSPENDED` The tenant is suspended. */
      403: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'Content-Language': components['headers']['Content-Language'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorBody'];
        };
      };
      /** @description Not found: `COMANDA_NOT_FOUND` No comanda has this id; `ITEM_NOT_FOUND` The comanda has no line with this id; `TENANT_NOT_FOUND` No tenant has this slug. */
      404: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'Content-Language': components['headers']['Content-Language'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorBody'];
        };
      };
      /** @description Conflict: `IDEMPOTENCY_KEY_IN_USE` A request with this Idempotency-Key is still running: retry after Retry-After seconds; `INVALID_TRANSITION` The comanda is not abierta. */
      409: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'Content-Language': components['headers']['Content-Language'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorBody'];
        };
      };
      /** @description Precondition failed: `STALE_VERSION` If-Match names another version than the current one. */
      412: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'Content-Language': components['headers']['Content-Language'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorBody'];
        };
      };
      /** @description Payload too large: `PAYLOAD_TOO_LARGE` The body is larger than BODY_LIMIT (a file: UPLOAD_MAX_BYTES). */
      413: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'Content-Language': components['headers']['Content-Language'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorBody'];
        };
      };
      /** @description Unsupported media type: `UNSUPPORTED_MEDIA_TYPE` The body came with another Content-Type than the route reads. */
      415: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'Content-Language': components['headers']['Content-Language'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorBody'];
        };
      };
      /** @description Unprocessable content: `IDEMPOTENCY_KEY_REUSED` This Idempotency-Key was used for another request (method, route, ids or body). */
      422: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'Content-Language': components['headers']['Content-Language'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorBody'];
        };
      };
      /** @description Too many requests: `RATE_LIMITED` Past RATE_LIMIT_MAX requests in the window (Retry-After). */
      429: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'Content-Language': components['headers']['Content-Language'];
          'Retry-After': components['headers']['Retry-After'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorBody'];
        };
      };
      /** @description Service unavailable: `57014` A statement ran longer than DB_STATEMENT_TIMEOUT_MS and was cancelled (Retry-After); `TENANT_PROVISIONING` The tenant is still being created (Retry-After); `TENANT_SCHEMA_OUTDATED` The tenant’s database is behind this version of the service: the operator migrates it (Retry-After); `DATABASE_UNAVAILABLE` The tenant database (or the catalog) does not answer (Retry-After); `REQUEST_TIMEOUT` Not answered within REQUEST_TIMEOUT_MS (Retry-After). */
      503: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'Content-Language': components['headers']['Content-Language'];
          'Retry-After': components['headers']['Retry-After'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorBody'];
        };
      };
    };
  };
  ComandasController_split_v1: {
    parameters: {
      query?: never;
      header?: {
        /** @description The ETag of the resource as last read ("3"): 412 STALE_VERSION when it changed since */
        'If-Match'?: string;
        /** @description Makes a retry safe: the same key with the same request within IDEMPOTENCY_TTL_HOURS answers what the first answered (with Idempotent-Replayed: true) and does nothing again. 1 to 255 visible ASCII characters, one per intended change (a UUID). */
        'Idempotency-Key'?: string;
      };
      path: {
        /** @description A positive integer id */
        id: number;
      };
      cookie?: never;
    };
    requestBody: {
      content: {
        'application/json': components['schemas']['SplitComandaBody'];
      };
    };
    responses: {
      /** @description The comanda split (origen, its version + 1) and the new one (nueva, version 1) */
      201: {
        headers: {
          /** @description The version, quoted ("3"): send it back in If-Match */
          ETag?: string;
          /** @description The path of the new comanda */
          Location?: string;
          'X-Request-Id': components['headers']['X-Request-Id'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['SplitResult'];
        };
      };
      /** @description Bad request: `IDEMPOTENCY_KEY_INVALID` Idempotency-Key is empty, longer than 255 characters, not visible ASCII, or sent twice; `VALIDATION_FAILED` A field or parameter is missing, unknown or of the wrong type or range: one message per field; `INVALID_SPLIT` A line to move is not on the comanda, is listed twice, or asks for more than it has; `23503` An id that does not exist (table, waiter, customer, referenced row): PostgreSQL’s detail, the column and the constraint; `TENANT_REQUIRED` No X-Tenant-ID header; `TENANT_INVALID` X-Tenant-ID is not a tenant slug; `INVALID_BODY` The JSON body is not an object (a string, a number, null, an array); `BAD_REQUEST` The body is not valid JSON; `INVALID_IF_MATCH` If-Match is not an ETag such as "3"; `INVALID_ID` A path id is not a positive integer of its range. */
      400: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'Content-Language': components['headers']['Content-Language'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorBody'];
        };
      };
      /** @description Not authenticated: `UNAUTHENTICATED` No token, or a malformed, expired or badly signed one, or not an active user of the tenant (WWW-Authenticate). */
      401: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'Content-Language': components['headers']['Content-Language'];
          'WWW-Authenticate': components['headers']['WWW-Authenticate'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorBody'];
        };
      };
      /** @description Forbidden: `TENANT_MISMATCH` The token was issued for another tenant than X-Tenant-ID; `FORBIDDEN` The user's roles do not give the permission the route needs; `TENANT_SUSPENDED` The tenant is suspended. */
      403: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'Content-Language': components['headers']['Content-Language'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorBody'];
        };
      };
      /** @description Not found: `COMANDA_NOT_FOUND` No comanda has this id; `TENANT_NOT_FOUND` No tenant has this slug. */
      404: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'Content-Language': components['headers']['Content-Language'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorBody'];
        };
      };
      /** @description Conflict: `IDEMPOTENCY_KEY_IN_USE` A request with this Idempotency-Key is still running: retry after Retry-After seconds; `INVALID_TRANSITION` The comanda is not abierta; `COMANDA_CON_PAGOS` The comanda has applied payments (void them first). */
      409: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'Content-Language': components['headers']['Content-Language'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorBody'];
        };
      };
      /** @description Precondition failed: `STALE_VERSION` If-Match names another version than the current one. */
      412: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'Content-Language': components['headers']['Content-Language'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorBody'];
        };
      };
      /** @description Payload too large: `PAYLOAD_TOO_LARGE` The body is larger than BODY_LIMIT (a file: UPLOAD_MAX_BYTES). */
      413: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'Content-Language': components['headers']['Content-Language'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorBody'];
        };
      };
      /** @description Unsupported media type: `UNSUPPORTED_MEDIA_TYPE` The body came with another Content-Type than the route reads. */
      415: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'Content-Language': components['headers']['Content-Language'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorBody'];
        };
      };
      /** @description Unprocessable content: `IDEMPOTENCY_KEY_REUSED` This Idempotency-Key was used for another request (method, route, ids or body). */
      422: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'Content-Language': components['headers']['Content-Language'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorBody'];
        };
      };
      /** @description Too many requests: `RATE_LIMITED` Past RATE_LIMIT_MAX requests in the window (Retry-After). */
      429: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'Content-Language': components['headers']['Content-Language'];
          'Retry-After': components['headers']['Retry-After'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorBody'];
        };
      };
      /** @description Service unavailable: `57014` A statement ran longer than DB_STATEMENT_TIMEOUT_MS and was cancelled (Retry-After); `TENANT_PROVISIONING` The tenant is still being created (Retry-After); `TENANT_SCHEMA_OUTDATED` The tenant’s database is behind this version of the service: the operator migrates it (Retry-After); `DATABASE_UNAVAILABLE` The tenant database (or the catalog) does not answer (Retry-After); `REQUEST_TIMEOUT` Not answered within REQUEST_TIMEOUT_MS (Retry-After). */
      503: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'Content-Language': components['headers']['Content-Language'];
          'Retry-After': components['headers']['Retry-After'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorBody'];
        };
      };
    };
  };
  ComandasController_merge_v1: {
    parameters: {
      query?: never;
      header?: {
        /** @description The ETag of the resource as last read ("3"): 412 STALE_VERSION when it changed since */
        'If-Match'?: string;
        /** @description Makes a retry safe: the same key with the same request within IDEMPOTENCY_TTL_HOURS answers what the first answered (with Idempotent-Replayed: true) and does nothing again. 1 to 255 visible ASCII characters, one per intended change (a UUID). */
        'Idempotency-Key'?: string;
      };
      path: {
        /** @description A positive integer id */
        id: number;
      };
      cookie?: never;
    };
    requestBody: {
      content: {
        'application/json': components['schemas']['MergeComandaBody'];
      };
    };
    responses: {
      /** @description This comanda with all the lines */
      200: {
        headers: {
          /** @description The version, quoted ("3"): send it back in If-Match */
          ETag?: string;
          'X-Request-Id': components['headers']['X-Request-Id'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ComandaDetail'];
        };
      };
      /** @description Bad request: `IDEMPOTENCY_KEY_INVALID` Idempotency-Key is empty, longer than 255 characters, not visible ASCII, or sent twice; `VALIDATION_FAILED` A field or parameter is missing, unknown or of the wrong type or range: one message per field; `INVALID_MERGE` A comanda to merge does not exist, is listed twice, or is the target itself; `TENANT_REQUIRED` No X-Tenant-ID header; `TENANT_INVALID` X-Tenant-ID is not a tenant slug; `INVALID_BODY` The JSON body is not an object (a string, a number, null, an array); `BAD_REQUEST` The body is not valid JSON; `INVALID_IF_MATCH` If-Match is not an ETag such as "3"; `INVALID_ID` A path id is not a positive integer of its range. */
      400: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'Content-Language': components['headers']['Content-Language'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorBody'];
        };
      };
      /** @description Not authenticated: `UNAUTHENTICATED` No token, or a malformed, expired or badly signed one, or not an active user of the tenant (WWW-Authenticate). */
      401: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'Content-Language': components['headers']['Content-Language'];
          'WWW-Authenticate': components['headers']['WWW-Authenticate'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorBody'];
        };
      };
      /** @description Forbidden: `TENANT_MISMATCH` The token was issued for another tenant than X-Tenant-ID; `FORBIDDEN` The user's roles do not give the permission the route needs; `TENANT_SUSPENDED` The tenant is suspended. */
      403: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'Content-Language': components['headers']['Content-Language'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorBody'];
        };
      };
      /** @description Not found: `COMANDA_NOT_FOUND` No comanda has this id; `TENANT_NOT_FOUND` No tenant has this slug. */
      404: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'Content-Language': components['headers']['Content-Language'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorBody'];
        };
      };
      /** @description Conflict: `IDEMPOTENCY_KEY_IN_USE` A request with this Idempotency-Key is still running: retry after Retry-After seconds; `INVALID_TRANSITION` A comanda to merge is not abierta (detail.id_comanda, detail.estado); `INVALID_TRANSITION` This comanda is not abierta; `COMANDA_CON_PAGOS` The comanda has applied payments (void them first). */
      409: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'Content-Language': components['headers']['Content-Language'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorBody'];
        };
      };
      /** @description Precondition failed: `STALE_VERSION` If-Match names another version than the current one. */
      412: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'Content-Language': components['headers']['Content-Language'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorBody'];
        };
      };
      /** @description Payload too large: `PAYLOAD_TOO_LARGE` The body is larger than BODY_LIMIT (a file: UPLOAD_MAX_BYTES). */
      413: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'Content-Language': components['headers']['Content-Language'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorBody'];
        };
      };
      /** @description Unsupported media type: `UNSUPPORTED_MEDIA_TYPE` The body came with another Content-Type than the route reads. */
      415: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'Content-Language': components['headers']['Content-Language'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorBody'];
        };
      };
      /** @description Unprocessable content: `IDEMPOTENCY_KEY_REUSED` This Idempotency-Key was used for another request (method, route, ids or body). */
      422: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'Content-Language': components['headers']['Content-Language'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorBody'];
        };
      };
      /** @description Too many requests: `RATE_LIMITED` Past RATE_LIMIT_MAX requests in the window (Retry-After). */
      429: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'Content-Language': components['headers']['Content-Language'];
          'Retry-After': components['headers']['Retry-After'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorBody'];
        };
      };
      /** @description Service unavailable: `57014` A statement ran longer than DB_STATEMENT_TIMEOUT_MS and was cancelled (Retry-After); `TENANT_PROVISIONING` The tenant is still being created (Retry-After); `TENANT_SCHEMA_OUTDATED` The tenant’s database is behind this version of the service: the operator migrates it (Retry-After); `DATABASE_UNAVAILABLE` The tenant database (or the catalog) does not answer (Retry-After); `REQUEST_TIMEOUT` Not answered within REQUEST_TIMEOUT_MS (Retry-After). */
      503: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'Content-Language': components['headers']['Content-Language'];
          'Retry-After': components['headers']['Retry-After'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorBody'];
        };
      };
    };
  };
  CatalogoController_productos_v1: {
    parameters: {
      query?: {
        /** @description Part of the name, ignoring case; `%` and `_` are plain characters (empty: every product) */
        q?: string;
        /** @description true: only the products on sale; false: only the withdrawn ones; default: all */
        activo?: boolean;
        /** @description Only the products of this category */
        id_categoria?: number;
        /** @description Page size (above the maximum is 400, not cut) */
        limit?: number;
        /** @description Products skipped before the page */
        offset?: number;
      };
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description A page of products */
      200: {
        headers: {
          /** @description Products matching the filters, whatever the page */
          'X-Total-Count'?: number;
          'X-Request-Id': components['headers']['X-Request-Id'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ProductoDto'][];
        };
      };
      /** @description Bad request: `VALIDATION_FAILED` A field or parameter is missing, unknown or of the wrong type or range: one message per field; `TENANT_REQUIRED` No X-Tenant-ID header; `TENANT_INVALID` X-Tenant-ID is not a tenant slug. */
      400: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'Content-Language': components['headers']['Content-Language'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorBody'];
        };
      };
      /** @description Not authenticated: `UNAUTHENTICATED` No token, or a malformed, expired or badly signed one, or not an active user of the tenant (WWW-Authenticate). */
      401: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'Content-Language': components['headers']['Content-Language'];
          'WWW-Authenticate': components['headers']['WWW-Authenticate'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorBody'];
        };
      };
      /** @description Forbidden: `TENANT_MISMATCH` The token was issued for another tenant than X-Tenant-ID; `FORBIDDEN` The user's roles do not give the permission the route needs; `TENANT_SUSPENDED` The tenant is suspended. */
      403: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'Content-Language': components['headers']['Content-Language'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorBody'];
        };
      };
      /** @description Not found: `TENANT_NOT_FOUND` No tenant has this slug. */
      404: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'Content-Language': components['headers']['Content-Language'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorBody'];
        };
      };
      /** @description Too many requests: `RATE_LIMITED` Past RATE_LIMIT_MAX requests in the window (Retry-After). */
      429: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'Content-Language': components['headers']['Content-Language'];
          'Retry-After': components['headers']['Retry-After'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorBody'];
        };
      };
      /** @description Service unavailable: `57014` A statement ran longer than DB_STATEMENT_TIMEOUT_MS and was cancelled (Retry-After); `TENANT_PROVISIONING` The tenant is still being created (Retry-After); `TENANT_SCHEMA_OUTDATED` The tenant’s database is behind this version of the service: the operator migrates it (Retry-After); `DATABASE_UNAVAILABLE` The tenant database (or the catalog) does not answer (Retry-After); `REQUEST_TIMEOUT` Not answered within REQUEST_TIMEOUT_MS (Retry-After). */
      503: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'Content-Language': components['headers']['Content-Language'];
          'Retry-After': components['headers']['Retry-After'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorBody'];
        };
      };
    };
  };
  CatalogoController_mesas_v1: {
    parameters: {
      query?: {
        /** @description true: only the tables in use; false: only the retired ones; default: all */
        activo?: boolean;
      };
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description The tables */
      200: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['MesaDto'][];
        };
      };
      /** @description Bad request: `VALIDATION_FAILED` A field or parameter is missing, unknown or of the wrong type or range: one message per field; `TENANT_REQUIRED` No X-Tenant-ID header; `TENANT_INVALID` X-Tenant-ID is not a tenant slug. */
      400: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'Content-Language': components['headers']['Content-Language'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorBody'];
        };
      };
      /** @description Not authenticated: `UNAUTHENTICATED` No token, or a malformed, expired or badly signed one, or not an active user of the tenant (WWW-Authenticate). */
      401: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'Content-Language': components['headers']['Content-Language'];
          'WWW-Authenticate': components['headers']['WWW-Authenticate'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorBody'];
        };
      };
      /** @description Forbidden: `TENANT_MISMATCH` The token was issued for another tenant than X-Tenant-ID; `FORBIDDEN` The user's roles do not give the permission the route needs; `TENANT_SUSPENDED` The tenant is suspended. */
      403: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'Content-Language': components['headers']['Content-Language'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorBody'];
        };
      };
      /** @description Not found: `TENANT_NOT_FOUND` No tenant has this slug. */
      404: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'Content-Language': components['headers']['Content-Language'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorBody'];
        };
      };
      /** @description Too many requests: `RATE_LIMITED` Past RATE_LIMIT_MAX requests in the window (Retry-After). */
      429: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'Content-Language': components['headers']['Content-Language'];
          'Retry-After': components['headers']['Retry-After'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorBody'];
        };
      };
      /** @description Service unavailable: `57014` A statement ran longer than DB_STATEMENT_TIMEOUT_MS and was cancelled (Retry-After); `TENANT_PROVISIONING` The tenant is still being created (Retry-After); `TENANT_SCHEMA_OUTDATED` The tenant’s database is behind this version of the service: the operator migrates it (Retry-After); `DATABASE_UNAVAILABLE` The tenant database (or the catalog) does not answer (Retry-After); `REQUEST_TIMEOUT` Not answered within REQUEST_TIMEOUT_MS (Retry-After). */
      503: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'Content-Language': components['headers']['Content-Language'];
          'Retry-After': components['headers']['Retry-After'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorBody'];
        };
      };
    };
  };
  CatalogoController_mozos_v1: {
    parameters: {
      query?: {
        /** @description true: only the current staff; false: only the former ones; default: all */
        activo?: boolean;
      };
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description The waiters */
      200: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['MozoDto'][];
        };
      };
      /** @description Bad request: `VALIDATION_FAILED` A field or parameter is missing, unknown or of the wrong type or range: one message per field; `TENANT_REQUIRED` No X-Tenant-ID header; `TENANT_INVALID` X-Tenant-ID is not a tenant slug. */
      400: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'Content-Language': components['headers']['Content-Language'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorBody'];
        };
      };
      /** @description Not authenticated: `UNAUTHENTICATED` No token, or a malformed, expired or badly signed one, or not an active user of the tenant (WWW-Authenticate). */
      401: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'Content-Language': components['headers']['Content-Language'];
          'WWW-Authenticate': components['headers']['WWW-Authenticate'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorBody'];
        };
      };
      /** @description Forbidden: `TENANT_MISMATCH` The token was issued for another tenant than X-Tenant-ID; `FORBIDDEN` The user's roles do not give the permission the route needs; `TENANT_SUSPENDED` The tenant is suspended. */
      403: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'Content-Language': components['headers']['Content-Language'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorBody'];
        };
      };
      /** @description Not found: `TENANT_NOT_FOUND` No tenant has this slug. */
      404: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'Content-Language': components['headers']['Content-Language'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorBody'];
        };
      };
      /** @description Too many requests: `RATE_LIMITED` Past RATE_LIMIT_MAX requests in the window (Retry-After). */
      429: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'Content-Language': components['headers']['Content-Language'];
          'Retry-After': components['headers']['Retry-After'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorBody'];
        };
      };
      /** @description Service unavailable: `57014` A statement ran longer than DB_STATEMENT_TIMEOUT_MS and was cancelled (Retry-After); `TENANT_PROVISIONING` The tenant is still being created (Retry-After); `TENANT_SCHEMA_OUTDATED` The tenant’s database is behind this version of the service: the operator migrates it (Retry-After); `DATABASE_UNAVAILABLE` The tenant database (or the catalog) does not answer (Retry-After); `REQUEST_TIMEOUT` Not answered within REQUEST_TIMEOUT_MS (Retry-After). */
      503: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'Content-Language': components['headers']['Content-Language'];
          'Retry-After': components['headers']['Retry-After'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorBody'];
        };
      };
    };
  };
  ReservasController_list_v1: {
    parameters: {
      query?: {
        /** @description The business day (YYYY-MM-DD, tenant time zone); default: today there */
        fecha?: string;
        /** @description Only reservations in this estado */
        estado?: 'pendiente' | 'sentada' | 'cancelada' | 'no_show';
        /** @description Only reservations of this table */
        id_mesa?: number;
        /** @description Page size (above the maximum is 400, not cut) */
        limit?: number;
        /** @description Reservations skipped before the page */
        offset?: number;
      };
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description A page of reservations */
      200: {
        headers: {
          /** @description Reservations matching the filters, whatever the page */
          'X-Total-Count'?: number;
          'X-Request-Id': components['headers']['X-Request-Id'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ReservaDto'][];
        };
      };
      /** @description Bad request: `VALIDATION_FAILED` A field or parameter is missing, unknown or of the wrong type or range: one message per field; `TENANT_REQUIRED` No X-Tenant-ID header; `TENANT_INVALID` X-Tenant-ID is not a tenant slug. */
      400: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'Content-Language': components['headers']['Content-Language'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorBody'];
        };
      };
      /** @description Not authenticated: `UNAUTHENTICATED` No token, or a malformed, expired or badly signed one, or not an active user of the tenant (WWW-Authenticate). */
      401: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'Content-Language': components['headers']['Content-Language'];
          'WWW-Authenticate': components['headers']['WWW-Authenticate'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorBody'];
        };
      };
      /** @description Forbidden: `TENANT_MISMATCH` The token was issued for another tenant than X-Tenant-ID; `FORBIDDEN` The user's roles do not give the permission the route needs; `TENANT_SUSPENDED` The tenant is suspended. */
      403: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'Content-Language': components['headers']['Content-Language'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorBody'];
        };
      };
      /** @description Not found: `NOT_FOUND` The feature is switched off for this tenant: the answer of a route that does not exist; `TENANT_NOT_FOUND` No tenant has this slug. */
      404: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'Content-Language': components['headers']['Content-Language'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorBody'];
        };
      };
      /** @description Too many requests: `RATE_LIMITED` Past RATE_LIMIT_MAX requests in the window (Retry-After). */
      429: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'Content-Language': components['headers']['Content-Language'];
          'Retry-After': components['headers']['Retry-After'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorBody'];
        };
      };
      /** @description Service unavailable: `57014` A statement ran longer than DB_STATEMENT_TIMEOUT_MS and was cancelled (Retry-After); `TENANT_PROVISIONING` The tenant is still being created (Retry-After); `TENANT_SCHEMA_OUTDATED` The tenant’s database is behind this version of the service: the operator migrates it (Retry-After); `DATABASE_UNAVAILABLE` The tenant database (or the catalog) does not answer (Retry-After); `REQUEST_TIMEOUT` Not answered within REQUEST_TIMEOUT_MS (Retry-After). */
      503: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'Content-Language': components['headers']['Content-Language'];
          'Retry-After': components['headers']['Retry-After'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorBody'];
        };
      };
    };
  };
  ReservasController_create_v1: {
    parameters: {
      query?: never;
      header?: {
        /** @description Makes a retry safe: the same key with the same request within IDEMPOTENCY_TTL_HOURS answers what the first answered (with Idempotent-Replayed: true) and does nothing again. 1 to 255 visible ASCII characters, one per intended change (a UUID). */
        'Idempotency-Key'?: string;
      };
      path?: never;
      cookie?: never;
    };
    requestBody: {
      content: {
        'application/json': components['schemas']['CreateReservaBody'];
      };
    };
    responses: {
      /** @description The new reservation, pendiente, version 1 */
      201: {
        headers: {
          /** @description The version, quoted ("3"): send it back in If-Match */
          ETag?: string;
          /** @description The path of the new reservation */
          Location?: string;
          'X-Request-Id': components['headers']['X-Request-Id'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ReservaDto'];
        };
      };
      /** @description Bad request: `IDEMPOTENCY_KEY_INVALID` Idempotency-Key is empty, longer than 255 characters, not visible ASCII, or sent twice; `VALIDATION_FAILED` A field or parameter is missing, unknown or of the wrong type or range: one message per field; `RESERVA_IN_THE_PAST` fecha is before today in the tenant’s time zone; `23503` An id that does not exist (table, waiter, customer, referenced row): PostgreSQL’s detail, the column and the constraint; `TENANT_REQUIRED` No X-Tenant-ID header; `TENANT_INVALID` X-Tenant-ID is not a tenant slug; `INVALID_BODY` The JSON body is not an object (a string, a number, null, an array); `BAD_REQUEST` The body is not valid JSON. */
      400: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'Content-Language': components['headers']['Content-Language'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorBody'];
        };
      };
      /** @description Not authenticated: `UNAUTHENTICATED` No token, or a malformed, expired or badly signed one, or not an active user of the tenant (WWW-Authenticate). */
      401: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'Content-Language': components['headers']['Content-Language'];
          'WWW-Authenticate': components['headers']['WWW-Authenticate'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorBody'];
        };
      };
      /** @description Forbidden: `TENANT_MISMATCH` The token was issued for another tenant than X-Tenant-ID; `FORBIDDEN` The user's roles do not give the permission the route needs; `TENANT_SUSPENDED` The tenant is suspended. */
      403: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'Content-Language': components['headers']['Content-Language'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorBody'];
        };
      };
      /** @description Not found: `NOT_FOUND` The feature is switched off for this tenant: the answer of a route that does not exist; `TENANT_NOT_FOUND` No tenant has this slug. */
      404: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'Content-Language': components['headers']['Content-Language'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorBody'];
        };
      };
      /** @description Conflict: `IDEMPOTENCY_KEY_IN_USE` A request with this Idempotency-Key is still running: retry after Retry-After seconds; `MESA_ALREADY_BOOKED` Another pendiente reservation of the table is closer than RESERVAS_WINDOW_MINUTES. */
      409: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'Content-Language': components['headers']['Content-Language'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorBody'];
        };
      };
      /** @description Payload too large: `PAYLOAD_TOO_LARGE` The body is larger than BODY_LIMIT (a file: UPLOAD_MAX_BYTES). */
      413: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'Content-Language': components['headers']['Content-Language'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorBody'];
        };
      };
      /** @description Unsupported media type: `UNSUPPORTED_MEDIA_TYPE` The body came with another Content-Type than the route reads. */
      415: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'Content-Language': components['headers']['Content-Language'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorBody'];
        };
      };
      /** @description Unprocessable content: `IDEMPOTENCY_KEY_REUSED` This Idempotency-Key was used for another request (method, route, ids or body). */
      422: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'Content-Language': components['headers']['Content-Language'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorBody'];
        };
      };
      /** @description Too many requests: `RATE_LIMITED` Past RATE_LIMIT_MAX requests in the window (Retry-After). */
      429: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'Content-Language': components['headers']['Content-Language'];
          'Retry-After': components['headers']['Retry-After'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorBody'];
        };
      };
      /** @description Service unavailable: `57014` A statement ran longer than DB_STATEMENT_TIMEOUT_MS and was cancelled (Retry-After); `TENANT_PROVISIONING` The tenant is still being created (Retry-After); `TENANT_SCHEMA_OUTDATED` The tenant’s database is behind this version of the service: the operator migrates it (Retry-After); `DATABASE_UNAVAILABLE` The tenant database (or the catalog) does not answer (Retry-After); `REQUEST_TIMEOUT` Not answered within REQUEST_TIMEOUT_MS (Retry-After). */
      503: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'Content-Language': components['headers']['Content-Language'];
          'Retry-After': components['headers']['Retry-After'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorBody'];
        };
      };
    };
  };
  ReservasController_get_v1: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        /** @description A positive integer id */
        id: number;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description The reservation */
      200: {
        headers: {
          /** @description The version, quoted ("3"): send it back in If-Match */
          ETag?: string;
          'X-Request-Id': components['headers']['X-Request-Id'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ReservaDto'];
        };
      };
      /** @description Bad request: `TENANT_REQUIRED` No X-Tenant-ID header; `TENANT_INVALID` X-Tenant-ID is not a tenant slug; `INVALID_ID` A path id is not a positive integer of its range. */
      400: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'Content-Language': components['headers']['Content-Language'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorBody'];
        };
      };
      /** @description Not authenticated: `UNAUTHENTICATED` No token, or a malformed, expired or badly signed one, or not an active user of the tenant (WWW-Authenticate). */
      401: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'Content-Language': components['headers']['Content-Language'];
          'WWW-Authenticate': components['headers']['WWW-Authenticate'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorBody'];
        };
      };
      /** @description Forbidden: `TENANT_MISMATCH` The token was issued for another tenant than X-Tenant-ID; `FORBIDDEN` The user's roles do not give the permission the route needs; `TENANT_SUSPENDED` The tenant is suspended. */
      403: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'Content-Language': components['headers']['Content-Language'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorBody'];
        };
      };
      /** @description Not found: `RESERVA_NOT_FOUND` No reservation has this id; `NOT_FOUND` The feature is switched off for this tenant: the answer of a route that does not exist; `TENANT_NOT_FOUND` No tenant has this slug. */
      404: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'Content-Language': components['headers']['Content-Language'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorBody'];
        };
      };
      /** @description Too many requests: `RATE_LIMITED` Past RATE_LIMIT_MAX requests in the window (Retry-After). */
      429: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'Content-Language': components['headers']['Content-Language'];
          'Retry-After': components['headers']['Retry-After'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorBody'];
        };
      };
      /** @description Service unavailable: `57014` A statement ran longer than DB_STATEMENT_TIMEOUT_MS and was cancelled (Retry-After); `TENANT_PROVISIONING` The tenant is still being created (Retry-After); `TENANT_SCHEMA_OUTDATED` The tenant’s database is behind this version of the service: the operator migrates it (Retry-After); `DATABASE_UNAVAILABLE` The tenant database (or the catalog) does not answer (Retry-After); `REQUEST_TIMEOUT` Not answered within REQUEST_TIMEOUT_MS (Retry-After). */
      503: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'Content-Language': components['headers']['Content-Language'];
          'Retry-After': components['headers']['Retry-After'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorBody'];
        };
      };
    };
  };
  ReservasController_update_v1: {
    parameters: {
      query?: never;
      header?: {
        /** @description The ETag of the resource as last read ("3"): 412 STALE_VERSION when it changed since */
        'If-Match'?: string;
        /** @description Makes a retry safe: the same key with the same request within IDEMPOTENCY_TTL_HOURS answers what the first answered (with Idempotent-Replayed: true) and does nothing again. 1 to 255 visible ASCII characters, one per intended change (a UUID). */
        'Idempotency-Key'?: string;
      };
      path: {
        /** @description A positive integer id */
        id: number;
      };
      cookie?: never;
    };
    requestBody: {
      content: {
        'application/json': components['schemas']['UpdateReservaBody'];
      };
    };
    responses: {
      /** @description The reservation as changed */
      200: {
        headers: {
          /** @description The version, quoted ("3"): send it back in If-Match */
          ETag?: string;
          'X-Request-Id': components['headers']['X-Request-Id'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ReservaDto'];
        };
      };
      /** @description Bad request: `IDEMPOTENCY_KEY_INVALID` Idempotency-Key is empty, longer than 255 characters, not visible ASCII, or sent twice; `VALIDATION_FAILED` A field or parameter is missing, unknown or of the wrong type or range: one message per field; `EMPTY_CHANGE` Nothing to change; `RESERVA_IN_THE_PAST` fecha is before today in the tenant’s time zone; `23503` An id that does not exist (table, waiter, customer, referenced row): PostgreSQL’s detail, the column and the constraint; `TENANT_REQUIRED` No X-Tenant-ID header; `TENANT_INVALID` X-Tenant-ID is not a tenant slug; `INVALID_BODY` The JSON body is not an object (a string, a number, null, an array); `BAD_REQUEST` The body is not valid JSON; `INVALID_IF_MATCH` If-Match is not an ETag such as "3"; `INVALID_ID` A path id is not a positive integer of its range. */
      400: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'Content-Language': components['headers']['Content-Language'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorBody'];
        };
      };
      /** @description Not authenticated: `UNAUTHENTICATED` No token, or a malformed, expired or badly signed one, or not an active user of the tenant (WWW-Authenticate). */
      401: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'Content-Language': components['headers']['Content-Language'];
          'WWW-Authenticate': components['headers']['WWW-Authenticate'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorBody'];
        };
      };
      /** @description Forbidden: `TENANT_MISMATCH` The token was issued for another tenant than X-Tenant-ID; `FORBIDDEN` The user's roles do not give the permission the route needs; `TENANT_SUSPENDED` The tenant is suspended. */
      403: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'Content-Language': components['headers']['Content-Language'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorBody'];
        };
      };
      /** @description Not found: `RESERVA_NOT_FOUND` No reservation has this id; `NOT_FOUND` The feature is switched off for this tenant: the answer of a route that does not exist; `TENANT_NOT_FOUND` No tenant has this slug. */
      404: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'Content-Language': components['headers']['Content-Language'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorBody'];
        };
      };
      /** @description Conflict: `IDEMPOTENCY_KEY_IN_USE` A request with this Idempotency-Key is still running: retry after Retry-After seconds; `INVALID_TRANSITION` Not allowed in the reservation’s current state (detail.estado): only a pendiente one changes; `MESA_ALREADY_BOOKED` Another pendiente reservation of the table is closer than RESERVAS_WINDOW_MINUTES. */
      409: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'Content-Language': components['headers']['Content-Language'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorBody'];
        };
      };
      /** @description Precondition failed: `STALE_VERSION` If-Match names another version than the current one. */
      412: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'Content-Language': components['headers']['Content-Language'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorBody'];
        };
      };
      /** @description Payload too large: `PAYLOAD_TOO_LARGE` The body is larger than BODY_LIMIT (a file: UPLOAD_MAX_BYTES). */
      413: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'Content-Language': components['headers']['Content-Language'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorBody'];
        };
      };
      /** @description Unsupported media type: `UNSUPPORTED_MEDIA_TYPE` The body came with another Content-Type than the route reads. */
      415: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'Content-Language': components['headers']['Content-Language'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorBody'];
        };
      };
      /** @description Unprocessable content: `IDEMPOTENCY_KEY_REUSED` This Idempotency-Key was used for another request (method, route, ids or body). */
      422: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'Content-Language': components['headers']['Content-Language'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorBody'];
        };
      };
      /** @description Too many requests: `RATE_LIMITED` Past RATE_LIMIT_MAX requests in the window (Retry-After). */
      429: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'Content-Language': components['headers']['Content-Language'];
          'Retry-After': components['headers']['Retry-After'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorBody'];
        };
      };
      /** @description Service unavailable: `57014` A statement ran longer than DB_STATEMENT_TIMEOUT_MS and was cancelled (Retry-After); `TENANT_PROVISIONING` The tenant is still being created (Retry-After); `TENANT_SCHEMA_OUTDATED` The tenant’s database is behind this version of the service: the operator migrates it (Retry-After); `DATABASE_UNAVAILABLE` The tenant database (or the catalog) does not answer (Retry-After); `REQUEST_TIMEOUT` Not answered within REQUEST_TIMEOUT_MS (Retry-After). */
      503: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'Content-Language': components['headers']['Content-Language'];
          'Retry-After': components['headers']['Retry-After'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorBody'];
        };
      };
    };
  };
  ReservasController_seat_v1: {
    parameters: {
      query?: never;
      header?: {
        /** @description The ETag of the resource as last read ("3"): 412 STALE_VERSION when it changed since */
        'If-Match'?: string;
        /** @description Makes a retry safe: the same key with the same request within IDEMPOTENCY_TTL_HOURS answers what the first answered (with Idempotent-Replayed: true) and does nothing again. 1 to 255 visible ASCII characters, one per intended change (a UUID). */
        'Idempotency-Key'?: string;
      };
      path: {
        /** @description A positive integer id */
        id: number;
      };
      cookie?: never;
    };
    requestBody: {
      content: {
        'application/json': components['schemas']['SentarReservaBody'];
      };
    };
    responses: {
      /** @description The reservation, sentada, with the id_comanda of the comanda opened */
      200: {
        headers: {
          /** @description The version, quoted ("3"): send it back in If-Match */
          ETag?: string;
          'X-Request-Id': components['headers']['X-Request-Id'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ReservaDto'];
        };
      };
      /** @description Bad request: `IDEMPOTENCY_KEY_INVALID` Idempotency-Key is empty, longer than 255 characters, not visible ASCII, or sent twice; `VALIDATION_FAILED` A field or parameter is missing, unknown or of the wrong type or range: one message per field; `MESA_REQUIRED` Seating a reservation without a table needs id_mesa; `23503` An id that does not exist (table, waiter, customer, referenced row): PostgreSQL’s detail, the column and the constraint; `TENANT_REQUIRED` No X-Tenant-ID header; `TENANT_INVALID` X-Tenant-ID is not a tenant slug; `INVALID_BODY` The JSON body is not an object (a string, a number, null, an array); `BAD_REQUEST` The body is not valid JSON; `INVALID_IF_MATCH` If-Match is not an ETag such as "3"; `INVALID_ID` A path id is not a positive integer of its range. */
      400: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'Content-Language': components['headers']['Content-Language'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorBody'];
        };
      };
      /** @description Not authenticated: `UNAUTHENTICATED` No token, or a malformed, expired or badly signed one, or not an active user of the tenant (WWW-Authenticate). */
      401: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'Content-Language': components['headers']['Content-Language'];
          'WWW-Authenticate': components['headers']['WWW-Authenticate'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorBody'];
        };
      };
      /** @description Forbidden: `TENANT_MISMATCH` The token was issued for another tenant than X-Tenant-ID; `FORBIDDEN` The user's roles do not give the permission the route needs; `TENANT_SUSPENDED` The tenant is suspended. */
      403: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'Content-Language': components['headers']['Content-Language'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorBody'];
        };
      };
      /** @description Not found: `RESERVA_NOT_FOUND` No reservation has this id; `NOT_FOUND` The feature is switched off for this tenant: the answer of a route that does not exist; `TENANT_NOT_FOUND` No tenant has this slug. */
      404: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'Content-Language': components['headers']['Content-Language'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorBody'];
        };
      };
      /** @description Conflict: `IDEMPOTENCY_KEY_IN_USE` A request with this Idempotency-Key is still running: retry after Retry-After seconds; `INVALID_TRANSITION` Not allowed in the reservation’s current state (detail.estado): only a pendiente one changes. */
      409: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'Content-Language': components['headers']['Content-Language'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorBody'];
        };
      };
      /** @description Precondition failed: `STALE_VERSION` If-Match names another version than the current one. */
      412: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'Content-Language': components['headers']['Content-Language'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorBody'];
        };
      };
      /** @description Payload too large: `PAYLOAD_TOO_LARGE` The body is larger than BODY_LIMIT (a file: UPLOAD_MAX_BYTES). */
      413: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'Content-Language': components['headers']['Content-Language'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorBody'];
        };
      };
      /** @description Unsupported media type: `UNSUPPORTED_MEDIA_TYPE` The body came with another Content-Type than the route reads. */
      415: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'Content-Language': components['headers']['Content-Language'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorBody'];
        };
      };
      /** @description Unprocessable content: `IDEMPOTENCY_KEY_REUSED` This Idempotency-Key was used for another request (method, route, ids or body). */
      422: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'Content-Language': components['headers']['Content-Language'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorBody'];
        };
      };
      /** @description Too many requests: `RATE_LIMITED` Past RATE_LIMIT_MAX requests in the window (Retry-After). */
      429: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'Content-Language': components['headers']['Content-Language'];
          'Retry-After': components['headers']['Retry-After'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorBody'];
        };
      };
      /** @description Service unavailable: `57014` A statement ran longer than DB_STATEMENT_TIMEOUT_MS and was cancelled (Retry-After); `TENANT_PROVISIONING` The tenant is still being created (Retry-After); `TENANT_SCHEMA_OUTDATED` The tenant’s database is behind this version of the service: the operator migrates it (Retry-After); `DATABASE_UNAVAILABLE` The tenant database (or the catalog) does not answer (Retry-After); `REQUEST_TIMEOUT` Not answered within REQUEST_TIMEOUT_MS (Retry-After). */
      503: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'Content-Language': components['headers']['Content-Language'];
          'Retry-After': components['headers']['Retry-After'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorBody'];
        };
      };
    };
  };
  ReservasController_cancel_v1: {
    parameters: {
      query?: never;
      header?: {
        /** @description The ETag of the resource as last read ("3"): 412 STALE_VERSION when it changed since */
        'If-Match'?: string;
        /** @description Makes a retry safe: the same key with the same request within IDEMPOTENCY_TTL_HOURS answers what the first answered (with Idempotent-Replayed: true) and does nothing again. 1 to 255 visible ASCII characters, one per intended change (a UUID). */
        'Idempotency-Key'?: string;
      };
      path: {
        /** @description A positive integer id */
        id: number;
      };
      cookie?: never;
    };
    requestBody: {
      content: {
        'application/json': components['schemas']['CancelarReservaBody'];
      };
    };
    responses: {
      /** @description The reservation, cancelada */
      200: {
        headers: {
          /** @description The version, quoted ("3"): send it back in If-Match */
          ETag?: string;
          'X-Request-Id': components['headers']['X-Request-Id'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ReservaDto'];
        };
      };
      /** @description Bad request: `IDEMPOTENCY_KEY_INVALID` Idempotency-Key is empty, longer than 255 characters, not visible ASCII, or sent twice; `VALIDATION_FAILED` A field or parameter is missing, unknown or of the wrong type or range: one message per field; `TENANT_REQUIRED` No X-Tenant-ID header; `TENANT_INVALID` X-Tenant-ID is not a tenant slug; `INVALID_BODY` The JSON body is not an object (a string, a number, null, an array); `BAD_REQUEST` The body is not valid JSON; `INVALID_IF_MATCH` If-Match is not an ETag such as "3"; `INVALID_ID` A path id is not a positive integer of its range. */
      400: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'Content-Language': components['headers']['Content-Language'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorBody'];
        };
      };
      /** @description Not authenticated: `UNAUTHENTICATED` No token, or a malformed, expired or badly signed one, or not an active user of the tenant (WWW-Authenticate). */
      401: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'Content-Language': components['headers']['Content-Language'];
          'WWW-Authenticate': components['headers']['WWW-Authenticate'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorBody'];
        };
      };
      /** @description Forbidden: `TENANT_MISMATCH` The token was issued for another tenant than X-Tenant-ID; `FORBIDDEN` The user's roles do not give the permission the route needs; `TENANT_SUSPENDED` The tenant is suspended. */
      403: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'Content-Language': components['headers']['Content-Language'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorBody'];
        };
      };
      /** @description Not found: `RESERVA_NOT_FOUND` No reservation has this id; `NOT_FOUND` The feature is switched off for this tenant: the answer of a route that does not exist; `TENANT_NOT_FOUND` No tenant has this slug. */
      404: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'Content-Language': components['headers']['Content-Language'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorBody'];
        };
      };
      /** @description Conflict: `IDEMPOTENCY_KEY_IN_USE` A request with this Idempotency-Key is still running: retry after Retry-After seconds; `INVALID_TRANSITION` Not allowed in the reservation’s current state (detail.estado): only a pendiente one changes. */
      409: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'Content-Language': components['headers']['Content-Language'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorBody'];
        };
      };
      /** @description Precondition failed: `STALE_VERSION` If-Match names another version than the current one. */
      412: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'Content-Language': components['headers']['Content-Language'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorBody'];
        };
      };
      /** @description Payload too large: `PAYLOAD_TOO_LARGE` The body is larger than BODY_LIMIT (a file: UPLOAD_MAX_BYTES). */
      413: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'Content-Language': components['headers']['Content-Language'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorBody'];
        };
      };
      /** @description Unsupported media type: `UNSUPPORTED_MEDIA_TYPE` The body came with another Content-Type than the route reads. */
      415: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'Content-Language': components['headers']['Content-Language'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorBody'];
        };
      };
      /** @description Unprocessable content: `IDEMPOTENCY_KEY_REUSED` This Idempotency-Key was used for another request (method, route, ids or body). */
      422: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'Content-Language': components['headers']['Content-Language'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorBody'];
        };
      };
      /** @description Too many requests: `RATE_LIMITED` Past RATE_LIMIT_MAX requests in the window (Retry-After). */
      429: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'Content-Language': components['headers']['Content-Language'];
          'Retry-After': components['headers']['Retry-After'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorBody'];
        };
      };
      /** @description Service unavailable: `57014` A statement ran longer than DB_STATEMENT_TIMEOUT_MS and was cancelled (Retry-After); `TENANT_PROVISIONING` The tenant is still being created (Retry-After); `TENANT_SCHEMA_OUTDATED` The tenant’s database is behind this version of the service: the operator migrates it (Retry-After); `DATABASE_UNAVAILABLE` The tenant database (or the catalog) does not answer (Retry-After); `REQUEST_TIMEOUT` Not answered within REQUEST_TIMEOUT_MS (Retry-After). */
      503: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'Content-Language': components['headers']['Content-Language'];
          'Retry-After': components['headers']['Retry-After'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorBody'];
        };
      };
    };
  };
  ReservasController_noShow_v1: {
    parameters: {
      query?: never;
      header?: {
        /** @description The ETag of the resource as last read ("3"): 412 STALE_VERSION when it changed since */
        'If-Match'?: string;
        /** @description Makes a retry safe: the same key with the same request within IDEMPOTENCY_TTL_HOURS answers what the first answered (with Idempotent-Replayed: true) and does nothing again. 1 to 255 visible ASCII characters, one per intended change (a UUID). */
        'Idempotency-Key'?: string;
      };
      path: {
        /** @description A positive integer id */
        id: number;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description The reservation, no_show */
      200: {
        headers: {
          /** @description The version, quoted ("3"): send it back in If-Match */
          ETag?: string;
          'X-Request-Id': components['headers']['X-Request-Id'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ReservaDto'];
        };
      };
      /** @description Bad request: `IDEMPOTENCY_KEY_INVALID` Idempotency-Key is empty, longer than 255 characters, not visible ASCII, or sent twice; `TENANT_REQUIRED` No X-Tenant-ID header; `TENANT_INVALID` X-Tenant-ID is not a tenant slug; `INVALID_IF_MATCH` If-Match is not an ETag such as "3"; `INVALID_ID` A path id is not a positive integer of its range. */
      400: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'Content-Language': components['headers']['Content-Language'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorBody'];
        };
      };
      /** @description Not authenticated: `UNAUTHENTICATED` No token, or a malformed, expired or badly signed one, or not an active user of the tenant (WWW-Authenticate). */
      401: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'Content-Language': components['headers']['Content-Language'];
          'WWW-Authenticate': components['headers']['WWW-Authenticate'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorBody'];
        };
      };
      /** @description Forbidden: `TENANT_MISMATCH` The token was issued for another tenant than X-Tenant-ID; `FORBIDDEN` The user's roles do not give the permission the route needs; `TENANT_SUSPENDED` The tenant is suspended. */
      403: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'Content-Language': components['headers']['Content-Language'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorBody'];
        };
      };
      /** @description Not found: `RESERVA_NOT_FOUND` No reservation has this id; `NOT_FOUND` The feature is switched off for this tenant: the answer of a route that does not exist; `TENANT_NOT_FOUND` No tenant has this slug. */
      404: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'Content-Language': components['headers']['Content-Language'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorBody'];
        };
      };
      /** @description Conflict: `IDEMPOTENCY_KEY_IN_USE` A request with this Idempotency-Key is still running: retry after Retry-After seconds; `INVALID_TRANSITION` Not allowed in the reservation’s current state (detail.estado): only a pendiente one changes. */
      409: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'Content-Language': components['headers']['Content-Language'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorBody'];
        };
      };
      /** @description Precondition failed: `STALE_VERSION` If-Match names another version than the current one. */
      412: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'Content-Language': components['headers']['Content-Language'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorBody'];
        };
      };
      /** @description Unprocessable content: `IDEMPOTENCY_KEY_REUSED` This Idempotency-Key was used for another request (method, route, ids or body). */
      422: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'Content-Language': components['headers']['Content-Language'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorBody'];
        };
      };
      /** @description Too many requests: `RATE_LIMITED` Past RATE_LIMIT_MAX requests in the window (Retry-After). */
      429: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'Content-Language': components['headers']['Content-Language'];
          'Retry-After': components['headers']['Retry-After'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorBody'];
        };
      };
      /** @description Service unavailable: `57014` A statement ran longer than DB_STATEMENT_TIMEOUT_MS and was cancelled (Retry-After); `TENANT_PROVISIONING` The tenant is still being created (Retry-After); `TENANT_SCHEMA_OUTDATED` The tenant’s database is behind this version of the service: the operator migrates it (Retry-After); `DATABASE_UNAVAILABLE` The tenant database (or the catalog) does not answer (Retry-After); `REQUEST_TIMEOUT` Not answered within REQUEST_TIMEOUT_MS (Retry-After). */
      503: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'Content-Language': components['headers']['Content-Language'];
          'Retry-After': components['headers']['Retry-After'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorBody'];
        };
      };
    };
  };
  DeviceDriversController_list_v1: {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description OK */
      200: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['DriverDto'][];
        };
      };
      /** @description Not authenticated: `UNAUTHENTICATED` No token, or a malformed, expired or badly signed one, or not an active user of the tenant (WWW-Authenticate). */
      401: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'Content-Language': components['headers']['Content-Language'];
          'WWW-Authenticate': components['headers']['WWW-Authenticate'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorBody'];
        };
      };
      /** @description Forbidden: `TENANT_MISMATCH` The token was issued for another tenant than X-Tenant-ID. */
      403: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'Content-Language': components['headers']['Content-Language'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorBody'];
        };
      };
      /** @description Too many requests: `RATE_LIMITED` Past RATE_LIMIT_MAX requests in the window (Retry-After). */
      429: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'Content-Language': components['headers']['Content-Language'];
          'Retry-After': components['headers']['Retry-After'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorBody'];
        };
      };
    };
  };
  DeviceDriversController_validate_v1: {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody: {
      content: {
        'application/json': Record<string, never>;
      };
    };
    responses: {
      /** @description OK */
      200: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ManifestValidationDto'];
        };
      };
      /** @description Bad request: `INVALID_BODY` The JSON body is not an object (a string, a number, null, an array); `BAD_REQUEST` The body is not valid JSON. */
      400: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'Content-Language': components['headers']['Content-Language'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorBody'];
        };
      };
      /** @description Not authenticated: `UNAUTHENTICATED` No token, or a malformed, expired or badly signed one, or not an active user of the tenant (WWW-Authenticate). */
      401: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'Content-Language': components['headers']['Content-Language'];
          'WWW-Authenticate': components['headers']['WWW-Authenticate'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorBody'];
        };
      };
      /** @description Forbidden: `TENANT_MISMATCH` The token was issued for another tenant than X-Tenant-ID. */
      403: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'Content-Language': components['headers']['Content-Language'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorBody'];
        };
      };
      /** @description Payload too large: `PAYLOAD_TOO_LARGE` The body is larger than BODY_LIMIT (a file: UPLOAD_MAX_BYTES). */
      413: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'Content-Language': components['headers']['Content-Language'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorBody'];
        };
      };
      /** @description Unsupported media type: `UNSUPPORTED_MEDIA_TYPE` The body came with another Content-Type than the route reads. */
      415: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'Content-Language': components['headers']['Content-Language'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorBody'];
        };
      };
      /** @description Too many requests: `RATE_LIMITED` Past RATE_LIMIT_MAX requests in the window (Retry-After). */
      429: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'Content-Language': components['headers']['Content-Language'];
          'Retry-After': components['headers']['Retry-After'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorBody'];
        };
      };
    };
  };
  AttendanceImportController_import_v1: {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody: {
      content: {
        'multipart/form-data': {
          /** Format: binary */
          file: Blob;
          /** @example zkteco-attlog */
          driver: string;
        };
      };
    };
    responses: {
      /** @description OK */
      200: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ImportSummaryDto'];
        };
      };
      /** @description Bad request: `VALIDATION_FAILED` A field or parameter is missing, unknown or of the wrong type or range: one message per field; `FILE_REQUIRED` No file field in the form; `UNKNOWN_DRIVER` No loaded driver has this name; `DRIVER_NOT_FILE` The driver reads no files; `DRIVER_NOT_IMPORTABLE` The driver’s record format is unknown or its settings are invalid; `EXPORT_HEADER_MISMATCH` The header row of a CSV export lacks a mapped column; `TENANT_REQUIRED` No X-Tenant-ID header; `TENANT_INVALID` X-Tenant-ID is not a tenant slug. */
      400: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'Content-Language': components['headers']['Content-Language'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorBody'];
        };
      };
      /** @description Not authenticated: `UNAUTHENTICATED` No token, or a malformed, expired or badly signed one, or not an active user of the tenant (WWW-Authenticate). */
      401: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'Content-Language': components['headers']['Content-Language'];
          'WWW-Authenticate': components['headers']['WWW-Authenticate'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorBody'];
        };
      };
      /** @description Forbidden: `TENANT_MISMATCH` The token was issued for another tenant than X-Tenant-ID; `FORBIDDEN` The user's roles do not give the permission the route needs; `TENANT_SUSPENDED` The tenant is suspended. */
      403: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'Content-Language': components['headers']['Content-Language'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorBody'];
        };
      };
      /** @description Not found: `TENANT_NOT_FOUND` No tenant has this slug. */
      404: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'Content-Language': components['headers']['Content-Language'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorBody'];
        };
      };
      /** @description Payload too large: `PAYLOAD_TOO_LARGE` The body is larger than BODY_LIMIT (a file: UPLOAD_MAX_BYTES). */
      413: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'Content-Language': components['headers']['Content-Language'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorBody'];
        };
      };
      /** @description Unsupported media type: `UNSUPPORTED_MEDIA_TYPE` The body came with another Content-Type than the route reads. */
      415: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'Content-Language': components['headers']['Content-Language'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorBody'];
        };
      };
      /** @description Too many requests: `RATE_LIMITED` Past RATE_LIMIT_MAX requests in the window (Retry-After). */
      429: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'Content-Language': components['headers']['Content-Language'];
          'Retry-After': components['headers']['Retry-After'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorBody'];
        };
      };
      /** @description Service unavailable: `TENANT_PROVISIONING` The tenant is still being created (Retry-After); `TENANT_SCHEMA_OUTDATED` The tenant’s database is behind this version of the service: the operator migrates it (Retry-After); `DATABASE_UNAVAILABLE` The tenant database (or the catalog) does not answer (Retry-After). */
      503: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'Content-Language': components['headers']['Content-Language'];
          'Retry-After': components['headers']['Retry-After'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorBody'];
        };
      };
    };
  };
  GenericTablesController_tables_v1: {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description The allowed names */
      200: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          [name: string]: unknown;
        };
        content: {
          'application/json': string[];
        };
      };
      /** @description Bad request: `TENANT_REQUIRED` No X-Tenant-ID header; `TENANT_INVALID` X-Tenant-ID is not a tenant slug. */
      400: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'Content-Language': components['headers']['Content-Language'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorBody'];
        };
      };
      /** @description Not authenticated: `UNAUTHENTICATED` No token, or a malformed, expired or badly signed one, or not an active user of the tenant (WWW-Authenticate). */
      401: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'Content-Language': components['headers']['Content-Language'];
          'WWW-Authenticate': components['headers']['WWW-Authenticate'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorBody'];
        };
      };
      /** @description Forbidden: `TENANT_MISMATCH` The token was issued for another tenant than X-Tenant-ID; `FORBIDDEN` The user's roles do not give the permission the route needs; `TENANT_SUSPENDED` The tenant is suspended. */
      403: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'Content-Language': components['headers']['Content-Language'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorBody'];
        };
      };
      /** @description Not found: `NOT_FOUND` The feature is switched off for this tenant: the answer of a route that does not exist; `TENANT_NOT_FOUND` No tenant has this slug. */
      404: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'Content-Language': components['headers']['Content-Language'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorBody'];
        };
      };
      /** @description Too many requests: `RATE_LIMITED` Past RATE_LIMIT_MAX requests in the window (Retry-After). */
      429: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'Content-Language': components['headers']['Content-Language'];
          'Retry-After': components['headers']['Retry-After'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorBody'];
        };
      };
      /** @description Service unavailable: `TENANT_PROVISIONING` The tenant is still being created (Retry-After); `TENANT_SCHEMA_OUTDATED` The tenant’s database is behind this version of the service: the operator migrates it (Retry-After); `DATABASE_UNAVAILABLE` The tenant database (or the catalog) does not answer (Retry-After); `REQUEST_TIMEOUT` Not answered within REQUEST_TIMEOUT_MS (Retry-After). */
      503: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'Content-Language': components['headers']['Content-Language'];
          'Retry-After': components['headers']['Retry-After'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorBody'];
        };
      };
    };
  };
  GenericTablesController_schema_v1: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        /** @description An allowed table (GET /api/v1/tables); case-insensitive */
        table: string;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description The table and its columns */
      200: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['TableSchema'];
        };
      };
      /** @description Bad request: `INVALID_IDENTIFIER` A table or column name that is not an identifier; `TABLE_NOT_ALLOWED` A table outside the allow-list; `TABLE_NOT_FOUND` An allowed table missing from this tenant’s database; `TENANT_REQUIRED` No X-Tenant-ID header; `TENANT_INVALID` X-Tenant-ID is not a tenant slug. */
      400: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'Content-Language': components['headers']['Content-Language'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorBody'];
        };
      };
      /** @description Not authenticated: `UNAUTHENTICATED` No token, or a malformed, expired or badly signed one, or not an active user of the tenant (WWW-Authenticate). */
      401: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'Content-Language': components['headers']['Content-Language'];
          'WWW-Authenticate': components['headers']['WWW-Authenticate'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorBody'];
        };
      };
      /** @description Forbidden: `TENANT_MISMATCH` The token was issued for another tenant than X-Tenant-ID; `FORBIDDEN` The user's roles do not give the permission the route needs; `TENANT_SUSPENDED` The tenant is suspended. */
      403: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'Content-Language': components['headers']['Content-Language'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorBody'];
        };
      };
      /** @description Not found: `NOT_FOUND` The feature is switched off for this tenant: the answer of a route that does not exist; `TENANT_NOT_FOUND` No tenant has this slug. */
      404: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'Content-Language': components['headers']['Content-Language'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorBody'];
        };
      };
      /** @description Too many requests: `RATE_LIMITED` Past RATE_LIMIT_MAX requests in the window (Retry-After). */
      429: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'Content-Language': components['headers']['Content-Language'];
          'Retry-After': components['headers']['Retry-After'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorBody'];
        };
      };
      /** @description Service unavailable: `TENANT_PROVISIONING` The tenant is still being created (Retry-After); `TENANT_SCHEMA_OUTDATED` The tenant’s database is behind this version of the service: the operator migrates it (Retry-After); `DATABASE_UNAVAILABLE` The tenant database (or the catalog) does not answer (Retry-After); `REQUEST_TIMEOUT` Not answered within REQUEST_TIMEOUT_MS (Retry-After). */
      503: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'Content-Language': components['headers']['Content-Language'];
          'Retry-After': components['headers']['Retry-After'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorBody'];
        };
      };
    };
  };
  GenericTablesController_options_v1: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        /** @description An allowed table (GET /api/v1/tables); case-insensitive */
        table: string;
        /** @description A column of the table */
        column: string;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description The options, ordered by label */
      200: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['OptionItem'][];
        };
      };
      /** @description Bad request: `INVALID_IDENTIFIER` A table or column name that is not an identifier; `TABLE_NOT_ALLOWED` A table outside the allow-list; `TABLE_NOT_FOUND` An allowed table missing from this tenant’s database; `UNKNOWN_COLUMN` The table has no such column; `INVALID_IDENTIFIER` A column name that is not an identifier; `TENANT_REQUIRED` No X-Tenant-ID header; `TENANT_INVALID` X-Tenant-ID is not a tenant slug. */
      400: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'Content-Language': components['headers']['Content-Language'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorBody'];
        };
      };
      /** @description Not authenticated: `UNAUTHENTICATED` No token, or a malformed, expired or badly signed one, or not an active user of the tenant (WWW-Authenticate). */
      401: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'Content-Language': components['headers']['Content-Language'];
          'WWW-Authenticate': components['headers']['WWW-Authenticate'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorBody'];
        };
      };
      /** @description Forbidden: `TENANT_MISMATCH` The token was issued for another tenant than X-Tenant-ID; `FORBIDDEN` The user's roles do not give the permission the route needs; `TENANT_SUSPENDED` The tenant is suspended. */
      403: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'Content-Language': components['headers']['Content-Language'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorBody'];
        };
      };
      /** @description Not found: `NOT_FOUND` The feature is switched off for this tenant: the answer of a route that does not exist; `TENANT_NOT_FOUND` No tenant has this slug. */
      404: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'Content-Language': components['headers']['Content-Language'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorBody'];
        };
      };
      /** @description Too many requests: `RATE_LIMITED` Past RATE_LIMIT_MAX requests in the window (Retry-After). */
      429: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'Content-Language': components['headers']['Content-Language'];
          'Retry-After': components['headers']['Retry-After'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorBody'];
        };
      };
      /** @description Service unavailable: `TENANT_PROVISIONING` The tenant is still being created (Retry-After); `TENANT_SCHEMA_OUTDATED` The tenant’s database is behind this version of the service: the operator migrates it (Retry-After); `DATABASE_UNAVAILABLE` The tenant database (or the catalog) does not answer (Retry-After); `REQUEST_TIMEOUT` Not answered within REQUEST_TIMEOUT_MS (Retry-After). */
      503: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'Content-Language': components['headers']['Content-Language'];
          'Retry-After': components['headers']['Retry-After'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorBody'];
        };
      };
    };
  };
  GenericTablesController_rows_v1: {
    parameters: {
      query?: {
        /** @description Rows to return: 1 or more (above 1000 gives 1000); default 100 */
        limit?: number;
      };
      header?: never;
      path: {
        /** @description An allowed table (GET /api/v1/tables); case-insensitive */
        table: string;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description The rows, each an object of its columns */
      200: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            [key: string]: unknown;
          }[];
        };
      };
      /** @description Bad request: `INVALID_IDENTIFIER` A table or column name that is not an identifier; `TABLE_NOT_ALLOWED` A table outside the allow-list; `TABLE_NOT_FOUND` An allowed table missing from this tenant’s database; `INVALID_LIMIT` limit is not a positive integer; `VALIDATION_FAILED` A query parameter other than limit, or limit given twice; `TENANT_REQUIRED` No X-Tenant-ID header; `TENANT_INVALID` X-Tenant-ID is not a tenant slug. */
      400: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'Content-Language': components['headers']['Content-Language'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorBody'];
        };
      };
      /** @description Not authenticated: `UNAUTHENTICATED` No token, or a malformed, expired or badly signed one, or not an active user of the tenant (WWW-Authenticate). */
      401: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'Content-Language': components['headers']['Content-Language'];
          'WWW-Authenticate': components['headers']['WWW-Authenticate'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorBody'];
        };
      };
      /** @description Forbidden: `TENANT_MISMATCH` The token was issued for another tenant than X-Tenant-ID; `FORBIDDEN` The user's roles do not give the permission the route needs; `TENANT_SUSPENDED` The tenant is suspended. */
      403: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'Content-Language': components['headers']['Content-Language'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorBody'];
        };
      };
      /** @description Not found: `NOT_FOUND` The feature is switched off for this tenant: the answer of a route that does not exist; `TENANT_NOT_FOUND` No tenant has this slug. */
      404: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'Content-Language': components['headers']['Content-Language'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorBody'];
        };
      };
      /** @description Too many requests: `RATE_LIMITED` Past RATE_LIMIT_MAX requests in the window (Retry-After). */
      429: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'Content-Language': components['headers']['Content-Language'];
          'Retry-After': components['headers']['Retry-After'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorBody'];
        };
      };
      /** @description Service unavailable: `TENANT_PROVISIONING` The tenant is still being created (Retry-After); `TENANT_SCHEMA_OUTDATED` The tenant’s database is behind this version of the service: the operator migrates it (Retry-After); `DATABASE_UNAVAILABLE` The tenant database (or the catalog) does not answer (Retry-After); `REQUEST_TIMEOUT` Not answered within REQUEST_TIMEOUT_MS (Retry-After). */
      503: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'Content-Language': components['headers']['Content-Language'];
          'Retry-After': components['headers']['Retry-After'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorBody'];
        };
      };
    };
  };
  GenericTablesController_insert_v1: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        /** @description An allowed table (GET /api/v1/tables); case-insensitive */
        table: string;
      };
      cookie?: never;
    };
    /** @description Column values; keys that are not insertable columns are ignored */
    requestBody: {
      content: {
        'application/json': {
          [key: string]: unknown;
        };
      };
    };
    responses: {
      /** @description The row as stored */
      201: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['InsertedRow'];
        };
      };
      /** @description Bad request: `INVALID_IDENTIFIER` A table or column name that is not an identifier; `TABLE_NOT_ALLOWED` A table outside the allow-list; `TABLE_NOT_FOUND` An allowed table missing from this tenant’s database; `TABLE_READ_ONLY` A table a module owns: read it here, write it with the routes named; `NOT_INSERTABLE` The view takes no rows; `INVALID_VALUE` An object or array for a column that is not JSON; `23503` A referenced row that does not exist; `23505` A value already taken; `23514` A CHECK constraint refused a value; `23502` A required column left empty; `22P02` A value the column’s type cannot read, or another failure of the query: its SQLSTATE; `TENANT_REQUIRED` No X-Tenant-ID header; `TENANT_INVALID` X-Tenant-ID is not a tenant slug; `INVALID_BODY` The JSON body is not an object (a string, a number, null, an array); `BAD_REQUEST` The body is not valid JSON. */
      400: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'Content-Language': components['headers']['Content-Language'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorBody'];
        };
      };
      /** @description Not authenticated: `UNAUTHENTICATED` No token, or a malformed, expired or badly signed one, or not an active user of the tenant (WWW-Authenticate). */
      401: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'Content-Language': components['headers']['Content-Language'];
          'WWW-Authenticate': components['headers']['WWW-Authenticate'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorBody'];
        };
      };
      /** @description Forbidden: `TENANT_MISMATCH` The token was issued for another tenant than X-Tenant-ID; `FORBIDDEN` The user's roles do not give the permission the route needs; `TENANT_SUSPENDED` The tenant is suspended. */
      403: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'Content-Language': components['headers']['Content-Language'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorBody'];
        };
      };
      /** @description Not found: `NOT_FOUND` The feature is switched off for this tenant: the answer of a route that does not exist; `TENANT_NOT_FOUND` No tenant has this slug. */
      404: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'Content-Language': components['headers']['Content-Language'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorBody'];
        };
      };
      /** @description Payload too large: `PAYLOAD_TOO_LARGE` The body is larger than BODY_LIMIT (a file: UPLOAD_MAX_BYTES). */
      413: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'Content-Language': components['headers']['Content-Language'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorBody'];
        };
      };
      /** @description Unsupported media type: `UNSUPPORTED_MEDIA_TYPE` The body came with another Content-Type than the route reads. */
      415: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'Content-Language': components['headers']['Content-Language'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorBody'];
        };
      };
      /** @description Too many requests: `RATE_LIMITED` Past RATE_LIMIT_MAX requests in the window (Retry-After). */
      429: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'Content-Language': components['headers']['Content-Language'];
          'Retry-After': components['headers']['Retry-After'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorBody'];
        };
      };
      /** @description Service unavailable: `TENANT_PROVISIONING` The tenant is still being created (Retry-After); `TENANT_SCHEMA_OUTDATED` The tenant’s database is behind this version of the service: the operator migrates it (Retry-After); `DATABASE_UNAVAILABLE` The tenant database (or the catalog) does not answer (Retry-After); `REQUEST_TIMEOUT` Not answered within REQUEST_TIMEOUT_MS (Retry-After). */
      503: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'Content-Language': components['headers']['Content-Language'];
          'Retry-After': components['headers']['Retry-After'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorBody'];
        };
      };
    };
  };
  RpcController_getProducto_v1: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        /** @description A positive integer of the integer range */
        id: number;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description The store function’s JSON (`{}` when it returns nothing) */
      200: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            [key: string]: unknown;
          };
        };
      };
      /** @description Bad request: `TENANT_REQUIRED` No X-Tenant-ID header; `TENANT_INVALID` X-Tenant-ID is not a tenant slug; `INVALID_ID` A path id is not a positive integer of its range. */
      400: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'Content-Language': components['headers']['Content-Language'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorBody'];
        };
      };
      /** @description Not authenticated: `UNAUTHENTICATED` No token, or a malformed, expired or badly signed one, or not an active user of the tenant (WWW-Authenticate). */
      401: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'Content-Language': components['headers']['Content-Language'];
          'WWW-Authenticate': components['headers']['WWW-Authenticate'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorBody'];
        };
      };
      /** @description Forbidden: `TENANT_MISMATCH` The token was issued for another tenant than X-Tenant-ID; `FORBIDDEN` The user's roles do not give the permission the route needs; `TENANT_SUSPENDED` The tenant is suspended. */
      403: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'Content-Language': components['headers']['Content-Language'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorBody'];
        };
      };
      /** @description Not found: `NOT_FOUND` The feature is switched off for this tenant: the answer of a route that does not exist; `TENANT_NOT_FOUND` No tenant has this slug. */
      404: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'Content-Language': components['headers']['Content-Language'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorBody'];
        };
      };
      /** @description Too many requests: `RATE_LIMITED` Past RATE_LIMIT_MAX requests in the window (Retry-After). */
      429: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'Content-Language': components['headers']['Content-Language'];
          'Retry-After': components['headers']['Retry-After'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorBody'];
        };
      };
      /** @description Internal server error: `RPC_FAILED` The store function failed (the log has the cause, under the request id). */
      500: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'Content-Language': components['headers']['Content-Language'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorBody'];
        };
      };
      /** @description Service unavailable: `TENANT_PROVISIONING` The tenant is still being created (Retry-After); `TENANT_SCHEMA_OUTDATED` The tenant’s database is behind this version of the service: the operator migrates it (Retry-After); `DATABASE_UNAVAILABLE` The tenant database (or the catalog) does not answer (Retry-After); `REQUEST_TIMEOUT` Not answered within REQUEST_TIMEOUT_MS (Retry-After). */
      503: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'Content-Language': components['headers']['Content-Language'];
          'Retry-After': components['headers']['Retry-After'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorBody'];
        };
      };
    };
  };
  RpcController_saveProducto_v1: {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody: {
      content: {
        'application/json': {
          [key: string]: unknown;
        };
      };
    };
    responses: {
      /** @description The store function’s JSON (`{}` when it returns nothing) */
      200: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            [key: string]: unknown;
          };
        };
      };
      /** @description Bad request: `TENANT_REQUIRED` No X-Tenant-ID header; `TENANT_INVALID` X-Tenant-ID is not a tenant slug; `INVALID_BODY` The JSON body is not an object (a string, a number, null, an array); `BAD_REQUEST` The body is not valid JSON. */
      400: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'Content-Language': components['headers']['Content-Language'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorBody'];
        };
      };
      /** @description Not authenticated: `UNAUTHENTICATED` No token, or a malformed, expired or badly signed one, or not an active user of the tenant (WWW-Authenticate). */
      401: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'Content-Language': components['headers']['Content-Language'];
          'WWW-Authenticate': components['headers']['WWW-Authenticate'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorBody'];
        };
      };
      /** @description Forbidden: `TENANT_MISMATCH` The token was issued for another tenant than X-Tenant-ID; `FORBIDDEN` The user's roles do not give the permission the route needs; `TENANT_SUSPENDED` The tenant is suspended. */
      403: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'Content-Language': components['headers']['Content-Language'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorBody'];
        };
      };
      /** @description Not found: `NOT_FOUND` The feature is switched off for this tenant: the answer of a route that does not exist; `TENANT_NOT_FOUND` No tenant has this slug. */
      404: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'Content-Language': components['headers']['Content-Language'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorBody'];
        };
      };
      /** @description Payload too large: `PAYLOAD_TOO_LARGE` The body is larger than BODY_LIMIT (a file: UPLOAD_MAX_BYTES). */
      413: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'Content-Language': components['headers']['Content-Language'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorBody'];
        };
      };
      /** @description Unsupported media type: `UNSUPPORTED_MEDIA_TYPE` The body came with another Content-Type than the route reads. */
      415: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'Content-Language': components['headers']['Content-Language'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorBody'];
        };
      };
      /** @description Too many requests: `RATE_LIMITED` Past RATE_LIMIT_MAX requests in the window (Retry-After). */
      429: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'Content-Language': components['headers']['Content-Language'];
          'Retry-After': components['headers']['Retry-After'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorBody'];
        };
      };
      /** @description Internal server error: `RPC_FAILED` The store function failed (the log has the cause, under the request id). */
      500: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'Content-Language': components['headers']['Content-Language'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorBody'];
        };
      };
      /** @description Service unavailable: `TENANT_PROVISIONING` The tenant is still being created (Retry-After); `TENANT_SCHEMA_OUTDATED` The tenant’s database is behind this version of the service: the operator migrates it (Retry-After); `DATABASE_UNAVAILABLE` The tenant database (or the catalog) does not answer (Retry-After); `REQUEST_TIMEOUT` Not answered within REQUEST_TIMEOUT_MS (Retry-After). */
      503: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'Content-Language': components['headers']['Content-Language'];
          'Retry-After': components['headers']['Retry-After'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorBody'];
        };
      };
    };
  };
  RpcController_getMateria_v1: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        /** @description A positive integer of the integer range */
        id: number;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description The store function’s JSON (`{}` when it returns nothing) */
      200: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            [key: string]: unknown;
          };
        };
      };
      /** @description Bad request: `TENANT_REQUIRED` No X-Tenant-ID header; `TENANT_INVALID` X-Tenant-ID is not a tenant slug; `INVALID_ID` A path id is not a positive integer of its range. */
      400: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'Content-Language': components['headers']['Content-Language'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorBody'];
        };
      };
      /** @description Not authenticated: `UNAUTHENTICATED` No token, or a malformed, expired or badly signed one, or not an active user of the tenant (WWW-Authenticate). */
      401: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'Content-Language': components['headers']['Content-Language'];
          'WWW-Authenticate': components['headers']['WWW-Authenticate'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorBody'];
        };
      };
      /** @description Forbidden: `TENANT_MISMATCH` The token was issued for another tenant than X-Tenant-ID; `FORBIDDEN` The user's roles do not give the permission the route needs; `TENANT_SUSPENDED` The tenant is suspended. */
      403: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'Content-Language': components['headers']['Content-Language'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorBody'];
        };
      };
      /** @description Not found: `NOT_FOUND` The feature is switched off for this tenant: the answer of a route that does not exist; `TENANT_NOT_FOUND` No tenant has this slug. */
      404: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'Content-Language': components['headers']['Content-Language'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorBody'];
        };
      };
      /** @description Too many requests: `RATE_LIMITED` Past RATE_LIMIT_MAX requests in the window (Retry-After). */
      429: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'Content-Language': components['headers']['Content-Language'];
          'Retry-After': components['headers']['Retry-After'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorBody'];
        };
      };
      /** @description Internal server error: `RPC_FAILED` The store function failed (the log has the cause, under the request id). */
      500: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'Content-Language': components['headers']['Content-Language'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorBody'];
        };
      };
      /** @description Service unavailable: `TENANT_PROVISIONING` The tenant is still being created (Retry-After); `TENANT_SCHEMA_OUTDATED` The tenant’s database is behind this version of the service: the operator migrates it (Retry-After); `DATABASE_UNAVAILABLE` The tenant database (or the catalog) does not answer (Retry-After); `REQUEST_TIMEOUT` Not answered within REQUEST_TIMEOUT_MS (Retry-After). */
      503: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'Content-Language': components['headers']['Content-Language'];
          'Retry-After': components['headers']['Retry-After'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorBody'];
        };
      };
    };
  };
  RpcController_saveMateria_v1: {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody: {
      content: {
        'application/json': {
          [key: string]: unknown;
        };
      };
    };
    responses: {
      /** @description The store function’s JSON (`{}` when it returns nothing) */
      200: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            [key: string]: unknown;
          };
        };
      };
      /** @description Bad request: `TENANT_REQUIRED` No X-Tenant-ID header; `TENANT_INVALID` X-Tenant-ID is not a tenant slug; `INVALID_BODY` The JSON body is not an object (a string, a number, null, an array); `BAD_REQUEST` The body is not valid JSON. */
      400: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'Content-Language': components['headers']['Content-Language'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorBody'];
        };
      };
      /** @description Not authenticated: `UNAUTHENTICATED` No token, or a malformed, expired or badly signed one, or not an active user of the tenant (WWW-Authenticate). */
      401: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'Content-Language': components['headers']['Content-Language'];
          'WWW-Authenticate': components['headers']['WWW-Authenticate'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorBody'];
        };
      };
      /** @description Forbidden: `TENANT_MISMATCH` The token was issued for another tenant than X-Tenant-ID; `FORBIDDEN` The user's roles do not give the permission the route needs; `TENANT_SUSPENDED` The tenant is suspended. */
      403: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'Content-Language': components['headers']['Content-Language'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorBody'];
        };
      };
      /** @description Not found: `NOT_FOUND` The feature is switched off for this tenant: the answer of a route that does not exist; `TENANT_NOT_FOUND` No tenant has this slug. */
      404: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'Content-Language': components['headers']['Content-Language'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorBody'];
        };
      };
      /** @description Payload too large: `PAYLOAD_TOO_LARGE` The body is larger than BODY_LIMIT (a file: UPLOAD_MAX_BYTES). */
      413: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'Content-Language': components['headers']['Content-Language'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorBody'];
        };
      };
      /** @description Unsupported media type: `UNSUPPORTED_MEDIA_TYPE` The body came with another Content-Type than the route reads. */
      415: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'Content-Language': components['headers']['Content-Language'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorBody'];
        };
      };
      /** @description Too many requests: `RATE_LIMITED` Past RATE_LIMIT_MAX requests in the window (Retry-After). */
      429: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'Content-Language': components['headers']['Content-Language'];
          'Retry-After': components['headers']['Retry-After'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorBody'];
        };
      };
      /** @description Internal server error: `RPC_FAILED` The store function failed (the log has the cause, under the request id). */
      500: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'Content-Language': components['headers']['Content-Language'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorBody'];
        };
      };
      /** @description Service unavailable: `TENANT_PROVISIONING` The tenant is still being created (Retry-After); `TENANT_SCHEMA_OUTDATED` The tenant’s database is behind this version of the service: the operator migrates it (Retry-After); `DATABASE_UNAVAILABLE` The tenant database (or the catalog) does not answer (Retry-After); `REQUEST_TIMEOUT` Not answered within REQUEST_TIMEOUT_MS (Retry-After). */
      503: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'Content-Language': components['headers']['Content-Language'];
          'Retry-After': components['headers']['Retry-After'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorBody'];
        };
      };
    };
  };
  RpcController_findUsuarios_v1: {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody: {
      content: {
        'application/json': {
          [key: string]: unknown;
        };
      };
    };
    responses: {
      /** @description The store function’s JSON (`{}` when it returns nothing) */
      200: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            [key: string]: unknown;
          };
        };
      };
      /** @description Bad request: `TENANT_REQUIRED` No X-Tenant-ID header; `TENANT_INVALID` X-Tenant-ID is not a tenant slug; `INVALID_BODY` The JSON body is not an object (a string, a number, null, an array); `BAD_REQUEST` The body is not valid JSON. */
      400: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'Content-Language': components['headers']['Content-Language'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorBody'];
        };
      };
      /** @description Not authenticated: `UNAUTHENTICATED` No token, or a malformed, expired or badly signed one, or not an active user of the tenant (WWW-Authenticate). */
      401: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'Content-Language': components['headers']['Content-Language'];
          'WWW-Authenticate': components['headers']['WWW-Authenticate'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorBody'];
        };
      };
      /** @description Forbidden: `TENANT_MISMATCH` The token was issued for another tenant than X-Tenant-ID; `FORBIDDEN` The user's roles do not give the permission the route needs; `TENANT_SUSPENDED` The tenant is suspended. */
      403: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'Content-Language': components['headers']['Content-Language'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorBody'];
        };
      };
      /** @description Not found: `NOT_FOUND` The feature is switched off for this tenant: the answer of a route that does not exist; `TENANT_NOT_FOUND` No tenant has this slug. */
      404: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'Content-Language': components['headers']['Content-Language'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorBody'];
        };
      };
      /** @description Payload too large: `PAYLOAD_TOO_LARGE` The body is larger than BODY_LIMIT (a file: UPLOAD_MAX_BYTES). */
      413: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'Content-Language': components['headers']['Content-Language'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorBody'];
        };
      };
      /** @description Unsupported media type: `UNSUPPORTED_MEDIA_TYPE` The body came with another Content-Type than the route reads. */
      415: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'Content-Language': components['headers']['Content-Language'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorBody'];
        };
      };
      /** @description Too many requests: `RATE_LIMITED` Past RATE_LIMIT_MAX requests in the window (Retry-After). */
      429: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'Content-Language': components['headers']['Content-Language'];
          'Retry-After': components['headers']['Retry-After'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorBody'];
        };
      };
      /** @description Internal server error: `RPC_FAILED` The store function failed (the log has the cause, under the request id). */
      500: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'Content-Language': components['headers']['Content-Language'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorBody'];
        };
      };
      /** @description Service unavailable: `TENANT_PROVISIONING` The tenant is still being created (Retry-After); `TENANT_SCHEMA_OUTDATED` The tenant’s database is behind this version of the service: the operator migrates it (Retry-After); `DATABASE_UNAVAILABLE` The tenant database (or the catalog) does not answer (Retry-After); `REQUEST_TIMEOUT` Not answered within REQUEST_TIMEOUT_MS (Retry-After). */
      503: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'Content-Language': components['headers']['Content-Language'];
          'Retry-After': components['headers']['Retry-After'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorBody'];
        };
      };
    };
  };
  RpcController_importAsistencia_v1: {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody: {
      content: {
        'application/json': {
          [key: string]: unknown;
        };
      };
    };
    responses: {
      /** @description The store function’s JSON (`{}` when it returns nothing) */
      200: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            [key: string]: unknown;
          };
        };
      };
      /** @description Bad request: `TENANT_REQUIRED` No X-Tenant-ID header; `TENANT_INVALID` X-Tenant-ID is not a tenant slug; `INVALID_BODY` The JSON body is not an object (a string, a number, null, an array); `BAD_REQUEST` The body is not valid JSON. */
      400: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'Content-Language': components['headers']['Content-Language'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorBody'];
        };
      };
      /** @description Not authenticated: `UNAUTHENTICATED` No token, or a malformed, expired or badly signed one, or not an active user of the tenant (WWW-Authenticate). */
      401: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'Content-Language': components['headers']['Content-Language'];
          'WWW-Authenticate': components['headers']['WWW-Authenticate'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorBody'];
        };
      };
      /** @description Forbidden: `TENANT_MISMATCH` The token was issued for another tenant than X-Tenant-ID; `FORBIDDEN` The user's roles do not give the permission the route needs; `TENANT_SUSPENDED` The tenant is suspended. */
      403: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'Content-Language': components['headers']['Content-Language'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorBody'];
        };
      };
      /** @description Not found: `NOT_FOUND` The feature is switched off for this tenant: the answer of a route that does not exist; `TENANT_NOT_FOUND` No tenant has this slug. */
      404: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'Content-Language': components['headers']['Content-Language'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorBody'];
        };
      };
      /** @description Payload too large: `PAYLOAD_TOO_LARGE` The body is larger than BODY_LIMIT (a file: UPLOAD_MAX_BYTES). */
      413: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'Content-Language': components['headers']['Content-Language'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorBody'];
        };
      };
      /** @description Unsupported media type: `UNSUPPORTED_MEDIA_TYPE` The body came with another Content-Type than the route reads. */
      415: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'Content-Language': components['headers']['Content-Language'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorBody'];
        };
      };
      /** @description Too many requests: `RATE_LIMITED` Past RATE_LIMIT_MAX requests in the window (Retry-After). */
      429: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'Content-Language': components['headers']['Content-Language'];
          'Retry-After': components['headers']['Retry-After'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorBody'];
        };
      };
      /** @description Internal server error: `RPC_FAILED` The store function failed (the log has the cause, under the request id). */
      500: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'Content-Language': components['headers']['Content-Language'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorBody'];
        };
      };
      /** @description Service unavailable: `TENANT_PROVISIONING` The tenant is still being created (Retry-After); `TENANT_SCHEMA_OUTDATED` The tenant’s database is behind this version of the service: the operator migrates it (Retry-After); `DATABASE_UNAVAILABLE` The tenant database (or the catalog) does not answer (Retry-After); `REQUEST_TIMEOUT` Not answered within REQUEST_TIMEOUT_MS (Retry-After). */
      503: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'Content-Language': components['headers']['Content-Language'];
          'Retry-After': components['headers']['Retry-After'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorBody'];
        };
      };
    };
  };
  RpcController_asistenciaGet_v1: {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody: {
      content: {
        'application/json': {
          [key: string]: unknown;
        };
      };
    };
    responses: {
      /** @description The store function’s JSON */
      200: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['AsistenciaGetDto'];
        };
      };
      /** @description Bad request: `VALIDATION_FAILED` A field or parameter is missing, unknown or of the wrong type or range: one message per field; `TENANT_REQUIRED` No X-Tenant-ID header; `TENANT_INVALID` X-Tenant-ID is not a tenant slug; `INVALID_BODY` The JSON body is not an object (a string, a number, null, an array); `BAD_REQUEST` The body is not valid JSON. */
      400: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'Content-Language': components['headers']['Content-Language'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorBody'];
        };
      };
      /** @description Not authenticated: `UNAUTHENTICATED` No token, or a malformed, expired or badly signed one, or not an active user of the tenant (WWW-Authenticate). */
      401: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'Content-Language': components['headers']['Content-Language'];
          'WWW-Authenticate': components['headers']['WWW-Authenticate'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorBody'];
        };
      };
      /** @description Forbidden: `TENANT_MISMATCH` The token was issued for another tenant than X-Tenant-ID; `FORBIDDEN` The user's roles do not give the permission the route needs; `TENANT_SUSPENDED` The tenant is suspended. */
      403: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'Content-Language': components['headers']['Content-Language'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorBody'];
        };
      };
      /** @description Not found: `NOT_FOUND` The feature is switched off for this tenant: the answer of a route that does not exist; `TENANT_NOT_FOUND` No tenant has this slug. */
      404: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'Content-Language': components['headers']['Content-Language'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorBody'];
        };
      };
      /** @description Payload too large: `PAYLOAD_TOO_LARGE` The body is larger than BODY_LIMIT (a file: UPLOAD_MAX_BYTES). */
      413: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'Content-Language': components['headers']['Content-Language'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorBody'];
        };
      };
      /** @description Unsupported media type: `UNSUPPORTED_MEDIA_TYPE` The body came with another Content-Type than the route reads. */
      415: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'Content-Language': components['headers']['Content-Language'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorBody'];
        };
      };
      /** @description Too many requests: `RATE_LIMITED` Past RATE_LIMIT_MAX requests in the window (Retry-After). */
      429: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'Content-Language': components['headers']['Content-Language'];
          'Retry-After': components['headers']['Retry-After'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorBody'];
        };
      };
      /** @description Internal server error: `RPC_FAILED` The store function failed (the log has the cause, under the request id). */
      500: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'Content-Language': components['headers']['Content-Language'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorBody'];
        };
      };
      /** @description Service unavailable: `TENANT_PROVISIONING` The tenant is still being created (Retry-After); `TENANT_SCHEMA_OUTDATED` The tenant’s database is behind this version of the service: the operator migrates it (Retry-After); `DATABASE_UNAVAILABLE` The tenant database (or the catalog) does not answer (Retry-After); `REQUEST_TIMEOUT` Not answered within REQUEST_TIMEOUT_MS (Retry-After). */
      503: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'Content-Language': components['headers']['Content-Language'];
          'Retry-After': components['headers']['Retry-After'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorBody'];
        };
      };
    };
  };
  RpcController_asistenciaUpdateRaw_v1: {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody: {
      content: {
        'application/json': {
          [key: string]: unknown;
        };
      };
    };
    responses: {
      /** @description The store function’s JSON (`{}` when it returns nothing) */
      200: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            [key: string]: unknown;
          };
        };
      };
      /** @description Bad request: `TENANT_REQUIRED` No X-Tenant-ID header; `TENANT_INVALID` X-Tenant-ID is not a tenant slug; `INVALID_BODY` The JSON body is not an object (a string, a number, null, an array); `BAD_REQUEST` The body is not valid JSON. */
      400: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'Content-Language': components['headers']['Content-Language'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorBody'];
        };
      };
      /** @description Not authenticated: `UNAUTHENTICATED` No token, or a malformed, expired or badly signed one, or not an active user of the tenant (WWW-Authenticate). */
      401: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'Content-Language': components['headers']['Content-Language'];
          'WWW-Authenticate': components['headers']['WWW-Authenticate'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorBody'];
        };
      };
      /** @description Forbidden: `TENANT_MISMATCH` The token was issued for another tenant than X-Tenant-ID; `FORBIDDEN` The user's roles do not give the permission the route needs; `TENANT_SUSPENDED` The tenant is suspended. */
      403: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'Content-Language': components['headers']['Content-Language'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorBody'];
        };
      };
      /** @description Not found: `NOT_FOUND` The feature is switched off for this tenant: the answer of a route that does not exist; `TENANT_NOT_FOUND` No tenant has this slug. */
      404: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'Content-Language': components['headers']['Content-Language'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorBody'];
        };
      };
      /** @description Payload too large: `PAYLOAD_TOO_LARGE` The body is larger than BODY_LIMIT (a file: UPLOAD_MAX_BYTES). */
      413: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'Content-Language': components['headers']['Content-Language'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorBody'];
        };
      };
      /** @description Unsupported media type: `UNSUPPORTED_MEDIA_TYPE` The body came with another Content-Type than the route reads. */
      415: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'Content-Language': components['headers']['Content-Language'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorBody'];
        };
      };
      /** @description Too many requests: `RATE_LIMITED` Past RATE_LIMIT_MAX requests in the window (Retry-After). */
      429: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'Content-Language': components['headers']['Content-Language'];
          'Retry-After': components['headers']['Retry-After'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorBody'];
        };
      };
      /** @description Internal server error: `RPC_FAILED` The store function failed (the log has the cause, under the request id). */
      500: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'Content-Language': components['headers']['Content-Language'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorBody'];
        };
      };
      /** @description Service unavailable: `TENANT_PROVISIONING` The tenant is still being created (Retry-After); `TENANT_SCHEMA_OUTDATED` The tenant’s database is behind this version of the service: the operator migrates it (Retry-After); `DATABASE_UNAVAILABLE` The tenant database (or the catalog) does not answer (Retry-After); `REQUEST_TIMEOUT` Not answered within REQUEST_TIMEOUT_MS (Retry-After). */
      503: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'Content-Language': components['headers']['Content-Language'];
          'Retry-After': components['headers']['Retry-After'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorBody'];
        };
      };
    };
  };
  RpcController_asistenciaDeleteRaw_v1: {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody: {
      content: {
        'application/json': {
          [key: string]: unknown;
        };
      };
    };
    responses: {
      /** @description The store function’s JSON (`{}` when it returns nothing) */
      200: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            [key: string]: unknown;
          };
        };
      };
      /** @description Bad request: `TENANT_REQUIRED` No X-Tenant-ID header; `TENANT_INVALID` X-Tenant-ID is not a tenant slug; `INVALID_BODY` The JSON body is not an object (a string, a number, null, an array); `BAD_REQUEST` The body is not valid JSON. */
      400: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'Content-Language': components['headers']['Content-Language'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorBody'];
        };
      };
      /** @description Not authenticated: `UNAUTHENTICATED` No token, or a malformed, expired or badly signed one, or not an active user of the tenant (WWW-Authenticate). */
      401: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'Content-Language': components['headers']['Content-Language'];
          'WWW-Authenticate': components['headers']['WWW-Authenticate'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorBody'];
        };
      };
      /** @description Forbidden: `TENANT_MISMATCH` The token was issued for another tenant than X-Tenant-ID; `FORBIDDEN` The user's roles do not give the permission the route needs; `TENANT_SUSPENDED` The tenant is suspended. */
      403: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'Content-Language': components['headers']['Content-Language'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorBody'];
        };
      };
      /** @description Not found: `NOT_FOUND` The feature is switched off for this tenant: the answer of a route that does not exist; `TENANT_NOT_FOUND` No tenant has this slug. */
      404: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'Content-Language': components['headers']['Content-Language'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorBody'];
        };
      };
      /** @description Payload too large: `PAYLOAD_TOO_LARGE` The body is larger than BODY_LIMIT (a file: UPLOAD_MAX_BYTES). */
      413: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'Content-Language': components['headers']['Content-Language'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorBody'];
        };
      };
      /** @description Unsupported media type: `UNSUPPORTED_MEDIA_TYPE` The body came with another Content-Type than the route reads. */
      415: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'Content-Language': components['headers']['Content-Language'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorBody'];
        };
      };
      /** @description Too many requests: `RATE_LIMITED` Past RATE_LIMIT_MAX requests in the window (Retry-After). */
      429: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'Content-Language': components['headers']['Content-Language'];
          'Retry-After': components['headers']['Retry-After'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorBody'];
        };
      };
      /** @description Internal server error: `RPC_FAILED` The store function failed (the log has the cause, under the request id). */
      500: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'Content-Language': components['headers']['Content-Language'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorBody'];
        };
      };
      /** @description Service unavailable: `TENANT_PROVISIONING` The tenant is still being created (Retry-After); `TENANT_SCHEMA_OUTDATED` The tenant’s database is behind this version of the service: the operator migrates it (Retry-After); `DATABASE_UNAVAILABLE` The tenant database (or the catalog) does not answer (Retry-After); `REQUEST_TIMEOUT` Not answered within REQUEST_TIMEOUT_MS (Retry-After). */
      503: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'Content-Language': components['headers']['Content-Language'];
          'Retry-After': components['headers']['Retry-After'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorBody'];
        };
      };
    };
  };
  RpcController_reportTickets_v1: {
    parameters: {
      query?: {
        /** @description The year (an integer; otherwise the current year in the tenant’s time zone) */
        year?: number;
      };
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody: {
      content: {
        'application/json': {
          [key: string]: unknown;
        };
      };
    };
    responses: {
      /** @description The store function’s JSON (`{}` when it returns nothing) */
      200: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            [key: string]: unknown;
          };
        };
      };
      /** @description Bad request: `TENANT_REQUIRED` No X-Tenant-ID header; `TENANT_INVALID` X-Tenant-ID is not a tenant slug; `INVALID_BODY` The JSON body is not an object (a string, a number, null, an array); `BAD_REQUEST` The body is not valid JSON. */
      400: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'Content-Language': components['headers']['Content-Language'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorBody'];
        };
      };
      /** @description Not authenticated: `UNAUTHENTICATED` No token, or a malformed, expired or badly signed one, or not an active user of the tenant (WWW-Authenticate). */
      401: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'Content-Language': components['headers']['Content-Language'];
          'WWW-Authenticate': components['headers']['WWW-Authenticate'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorBody'];
        };
      };
      /** @description Forbidden: `TENANT_MISMATCH` The token was issued for another tenant than X-Tenant-ID; `FORBIDDEN` The user's roles do not give the permission the route needs; `TENANT_SUSPENDED` The tenant is suspended. */
      403: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'Content-Language': components['headers']['Content-Language'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorBody'];
        };
      };
      /** @description Not found: `NOT_FOUND` The feature is switched off for this tenant: the answer of a route that does not exist; `TENANT_NOT_FOUND` No tenant has this slug. */
      404: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'Content-Language': components['headers']['Content-Language'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorBody'];
        };
      };
      /** @description Payload too large: `PAYLOAD_TOO_LARGE` The body is larger than BODY_LIMIT (a file: UPLOAD_MAX_BYTES). */
      413: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'Content-Language': components['headers']['Content-Language'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorBody'];
        };
      };
      /** @description Unsupported media type: `UNSUPPORTED_MEDIA_TYPE` The body came with another Content-Type than the route reads. */
      415: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'Content-Language': components['headers']['Content-Language'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorBody'];
        };
      };
      /** @description Too many requests: `RATE_LIMITED` Past RATE_LIMIT_MAX requests in the window (Retry-After). */
      429: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'Content-Language': components['headers']['Content-Language'];
          'Retry-After': components['headers']['Retry-After'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorBody'];
        };
      };
      /** @description Internal server error: `23503` The store function failed: PostgreSQL’s message, detail, context and SQLSTATE (code) are added. */
      500: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'Content-Language': components['headers']['Content-Language'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorBody'];
        };
      };
      /** @description Service unavailable: `TENANT_PROVISIONING` The tenant is still being created (Retry-After); `TENANT_SCHEMA_OUTDATED` The tenant’s database is behind this version of the service: the operator migrates it (Retry-After); `DATABASE_UNAVAILABLE` The tenant database (or the catalog) does not answer (Retry-After); `REQUEST_TIMEOUT` Not answered within REQUEST_TIMEOUT_MS (Retry-After). */
      503: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'Content-Language': components['headers']['Content-Language'];
          'Retry-After': components['headers']['Retry-After'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorBody'];
        };
      };
    };
  };
  RpcController_reportAsistencia_v1: {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody: {
      content: {
        'application/json': {
          [key: string]: unknown;
        };
      };
    };
    responses: {
      /** @description The store function’s JSON */
      200: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ReportAsistenciaDto'];
        };
      };
      /** @description Bad request: `TENANT_REQUIRED` No X-Tenant-ID header; `TENANT_INVALID` X-Tenant-ID is not a tenant slug; `INVALID_BODY` The JSON body is not an object (a string, a number, null, an array); `BAD_REQUEST` The body is not valid JSON. */
      400: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'Content-Language': components['headers']['Content-Language'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorBody'];
        };
      };
      /** @description Not authenticated: `UNAUTHENTICATED` No token, or a malformed, expired or badly signed one, or not an active user of the tenant (WWW-Authenticate). */
      401: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'Content-Language': components['headers']['Content-Language'];
          'WWW-Authenticate': components['headers']['WWW-Authenticate'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorBody'];
        };
      };
      /** @description Forbidden: `TENANT_MISMATCH` The token was issued for another tenant than X-Tenant-ID; `FORBIDDEN` The user's roles do not give the permission the route needs; `TENANT_SUSPENDED` The tenant is suspended. */
      403: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'Content-Language': components['headers']['Content-Language'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorBody'];
        };
      };
      /** @description Not found: `NOT_FOUND` The feature is switched off for this tenant: the answer of a route that does not exist; `TENANT_NOT_FOUND` No tenant has this slug. */
      404: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'Content-Language': components['headers']['Content-Language'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorBody'];
        };
      };
      /** @description Payload too large: `PAYLOAD_TOO_LARGE` The body is larger than BODY_LIMIT (a file: UPLOAD_MAX_BYTES). */
      413: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'Content-Language': components['headers']['Content-Language'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorBody'];
        };
      };
      /** @description Unsupported media type: `UNSUPPORTED_MEDIA_TYPE` The body came with another Content-Type than the route reads. */
      415: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'Content-Language': components['headers']['Content-Language'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorBody'];
        };
      };
      /** @description Too many requests: `RATE_LIMITED` Past RATE_LIMIT_MAX requests in the window (Retry-After). */
      429: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'Content-Language': components['headers']['Content-Language'];
          'Retry-After': components['headers']['Retry-After'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorBody'];
        };
      };
      /** @description Internal server error: `23503` The store function failed: PostgreSQL’s message, detail, context and SQLSTATE (code) are added. */
      500: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'Content-Language': components['headers']['Content-Language'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorBody'];
        };
      };
      /** @description Service unavailable: `TENANT_PROVISIONING` The tenant is still being created (Retry-After); `TENANT_SCHEMA_OUTDATED` The tenant’s database is behind this version of the service: the operator migrates it (Retry-After); `DATABASE_UNAVAILABLE` The tenant database (or the catalog) does not answer (Retry-After); `REQUEST_TIMEOUT` Not answered within REQUEST_TIMEOUT_MS (Retry-After). */
      503: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'Content-Language': components['headers']['Content-Language'];
          'Retry-After': components['headers']['Retry-After'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorBody'];
        };
      };
    };
  };
  RpcController_saveCompra_v1: {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody: {
      content: {
        'application/json': {
          [key: string]: unknown;
        };
      };
    };
    responses: {
      /** @description The store function’s JSON (`{}` when it returns nothing) */
      200: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            [key: string]: unknown;
          };
        };
      };
      /** @description Bad request: `TENANT_REQUIRED` No X-Tenant-ID header; `TENANT_INVALID` X-Tenant-ID is not a tenant slug; `INVALID_BODY` The JSON body is not an object (a string, a number, null, an array); `BAD_REQUEST` The body is not valid JSON. */
      400: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'Content-Language': components['headers']['Content-Language'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorBody'];
        };
      };
      /** @description Not authenticated: `UNAUTHENTICATED` No token, or a malformed, expired or badly signed one, or not an active user of the tenant (WWW-Authenticate). */
      401: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'Content-Language': components['headers']['Content-Language'];
          'WWW-Authenticate': components['headers']['WWW-Authenticate'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorBody'];
        };
      };
      /** @description Forbidden: `TENANT_MISMATCH` The token was issued for another tenant than X-Tenant-ID; `FORBIDDEN` The user's roles do not give the permission the route needs; `TENANT_SUSPENDED` The tenant is suspended. */
      403: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'Content-Language': components['headers']['Content-Language'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorBody'];
        };
      };
      /** @description Not found: `NOT_FOUND` The feature is switched off for this tenant: the answer of a route that does not exist; `TENANT_NOT_FOUND` No tenant has this slug. */
      404: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'Content-Language': components['headers']['Content-Language'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorBody'];
        };
      };
      /** @description Payload too large: `PAYLOAD_TOO_LARGE` The body is larger than BODY_LIMIT (a file: UPLOAD_MAX_BYTES). */
      413: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'Content-Language': components['headers']['Content-Language'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorBody'];
        };
      };
      /** @description Unsupported media type: `UNSUPPORTED_MEDIA_TYPE` The body came with another Content-Type than the route reads. */
      415: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'Content-Language': components['headers']['Content-Language'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorBody'];
        };
      };
      /** @description Too many requests: `RATE_LIMITED` Past RATE_LIMIT_MAX requests in the window (Retry-After). */
      429: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'Content-Language': components['headers']['Content-Language'];
          'Retry-After': components['headers']['Retry-After'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorBody'];
        };
      };
      /** @description Internal server error: `23503` The store function failed: PostgreSQL’s message, detail, context and SQLSTATE (code) are added. */
      500: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'Content-Language': components['headers']['Content-Language'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorBody'];
        };
      };
      /** @description Service unavailable: `TENANT_PROVISIONING` The tenant is still being created (Retry-After); `TENANT_SCHEMA_OUTDATED` The tenant’s database is behind this version of the service: the operator migrates it (Retry-After); `DATABASE_UNAVAILABLE` The tenant database (or the catalog) does not answer (Retry-After); `REQUEST_TIMEOUT` Not answered within REQUEST_TIMEOUT_MS (Retry-After). */
      503: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'Content-Language': components['headers']['Content-Language'];
          'Retry-After': components['headers']['Retry-After'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorBody'];
        };
      };
    };
  };
  RpcController_getCompra_v1: {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody: {
      content: {
        'application/json': {
          [key: string]: unknown;
        };
      };
    };
    responses: {
      /** @description The store function’s JSON (`{}` when it returns nothing) */
      200: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            [key: string]: unknown;
          };
        };
      };
      /** @description Bad request: `TENANT_REQUIRED` No X-Tenant-ID header; `TENANT_INVALID` X-Tenant-ID is not a tenant slug; `INVALID_BODY` The JSON body is not an object (a string, a number, null, an array); `BAD_REQUEST` The body is not valid JSON. */
      400: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'Content-Language': components['headers']['Content-Language'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorBody'];
        };
      };
      /** @description Not authenticated: `UNAUTHENTICATED` No token, or a malformed, expired or badly signed one, or not an active user of the tenant (WWW-Authenticate). */
      401: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'Content-Language': components['headers']['Content-Language'];
          'WWW-Authenticate': components['headers']['WWW-Authenticate'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorBody'];
        };
      };
      /** @description Forbidden: `TENANT_MISMATCH` The token was issued for another tenant than X-Tenant-ID; `FORBIDDEN` The user's roles do not give the permission the route needs; `TENANT_SUSPENDED` The tenant is suspended. */
      403: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'Content-Language': components['headers']['Content-Language'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorBody'];
        };
      };
      /** @description Not found: `NOT_FOUND` The feature is switched off for this tenant: the answer of a route that does not exist; `TENANT_NOT_FOUND` No tenant has this slug. */
      404: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'Content-Language': components['headers']['Content-Language'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorBody'];
        };
      };
      /** @description Payload too large: `PAYLOAD_TOO_LARGE` The body is larger than BODY_LIMIT (a file: UPLOAD_MAX_BYTES). */
      413: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'Content-Language': components['headers']['Content-Language'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorBody'];
        };
      };
      /** @description Unsupported media type: `UNSUPPORTED_MEDIA_TYPE` The body came with another Content-Type than the route reads. */
      415: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'Content-Language': components['headers']['Content-Language'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorBody'];
        };
      };
      /** @description Too many requests: `RATE_LIMITED` Past RATE_LIMIT_MAX requests in the window (Retry-After). */
      429: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'Content-Language': components['headers']['Content-Language'];
          'Retry-After': components['headers']['Retry-After'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorBody'];
        };
      };
      /** @description Internal server error: `RPC_FAILED` The store function failed (the log has the cause, under the request id). */
      500: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'Content-Language': components['headers']['Content-Language'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorBody'];
        };
      };
      /** @description Service unavailable: `TENANT_PROVISIONING` The tenant is still being created (Retry-After); `TENANT_SCHEMA_OUTDATED` The tenant’s database is behind this version of the service: the operator migrates it (Retry-After); `DATABASE_UNAVAILABLE` The tenant database (or the catalog) does not answer (Retry-After); `REQUEST_TIMEOUT` Not answered within REQUEST_TIMEOUT_MS (Retry-After). */
      503: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'Content-Language': components['headers']['Content-Language'];
          'Retry-After': components['headers']['Retry-After'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorBody'];
        };
      };
    };
  };
  RpcController_deleteCompra_v1: {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody: {
      content: {
        'application/json': {
          [key: string]: unknown;
        };
      };
    };
    responses: {
      /** @description The store function’s JSON (`{}` when it returns nothing) */
      200: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            [key: string]: unknown;
          };
        };
      };
      /** @description Bad request: `TENANT_REQUIRED` No X-Tenant-ID header; `TENANT_INVALID` X-Tenant-ID is not a tenant slug; `INVALID_BODY` The JSON body is not an object (a string, a number, null, an array); `BAD_REQUEST` The body is not valid JSON. */
      400: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'Content-Language': components['headers']['Content-Language'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorBody'];
        };
      };
      /** @description Not authenticated: `UNAUTHENTICATED` No token, or a malformed, expired or badly signed one, or not an active user of the tenant (WWW-Authenticate). */
      401: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'Content-Language': components['headers']['Content-Language'];
          'WWW-Authenticate': components['headers']['WWW-Authenticate'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorBody'];
        };
      };
      /** @description Forbidden: `TENANT_MISMATCH` The token was issued for another tenant than X-Tenant-ID; `FORBIDDEN` The user's roles do not give the permission the route needs; `TENANT_SUSPENDED` The tenant is suspended. */
      403: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'Content-Language': components['headers']['Content-Language'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorBody'];
        };
      };
      /** @description Not found: `NOT_FOUND` The feature is switched off for this tenant: the answer of a route that does not exist; `TENANT_NOT_FOUND` No tenant has this slug. */
      404: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'Content-Language': components['headers']['Content-Language'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorBody'];
        };
      };
      /** @description Payload too large: `PAYLOAD_TOO_LARGE` The body is larger than BODY_LIMIT (a file: UPLOAD_MAX_BYTES). */
      413: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'Content-Language': components['headers']['Content-Language'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorBody'];
        };
      };
      /** @description Unsupported media type: `UNSUPPORTED_MEDIA_TYPE` The body came with another Content-Type than the route reads. */
      415: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'Content-Language': components['headers']['Content-Language'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorBody'];
        };
      };
      /** @description Too many requests: `RATE_LIMITED` Past RATE_LIMIT_MAX requests in the window (Retry-After). */
      429: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'Content-Language': components['headers']['Content-Language'];
          'Retry-After': components['headers']['Retry-After'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorBody'];
        };
      };
      /** @description Internal server error: `RPC_FAILED` The store function failed (the log has the cause, under the request id). */
      500: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'Content-Language': components['headers']['Content-Language'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorBody'];
        };
      };
      /** @description Service unavailable: `TENANT_PROVISIONING` The tenant is still being created (Retry-After); `TENANT_SCHEMA_OUTDATED` The tenant’s database is behind this version of the service: the operator migrates it (Retry-After); `DATABASE_UNAVAILABLE` The tenant database (or the catalog) does not answer (Retry-After); `REQUEST_TIMEOUT` Not answered within REQUEST_TIMEOUT_MS (Retry-After). */
      503: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'Content-Language': components['headers']['Content-Language'];
          'Retry-After': components['headers']['Retry-After'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorBody'];
        };
      };
    };
  };
  RpcController_reportGastosQuery_v1: {
    parameters: {
      query?: {
        /** @description The year (an integer; otherwise the current year in the tenant’s time zone) */
        year?: number;
      };
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description The store function’s JSON (`{}` when it returns nothing) */
      200: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            [key: string]: unknown;
          };
        };
      };
      /** @description Bad request: `TENANT_REQUIRED` No X-Tenant-ID header; `TENANT_INVALID` X-Tenant-ID is not a tenant slug. */
      400: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'Content-Language': components['headers']['Content-Language'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorBody'];
        };
      };
      /** @description Not authenticated: `UNAUTHENTICATED` No token, or a malformed, expired or badly signed one, or not an active user of the tenant (WWW-Authenticate). */
      401: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'Content-Language': components['headers']['Content-Language'];
          'WWW-Authenticate': components['headers']['WWW-Authenticate'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorBody'];
        };
      };
      /** @description Forbidden: `TENANT_MISMATCH` The token was issued for another tenant than X-Tenant-ID; `FORBIDDEN` The user's roles do not give the permission the route needs; `TENANT_SUSPENDED` The tenant is suspended. */
      403: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'Content-Language': components['headers']['Content-Language'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorBody'];
        };
      };
      /** @description Not found: `NOT_FOUND` The feature is switched off for this tenant: the answer of a route that does not exist; `TENANT_NOT_FOUND` No tenant has this slug. */
      404: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'Content-Language': components['headers']['Content-Language'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorBody'];
        };
      };
      /** @description Too many requests: `RATE_LIMITED` Past RATE_LIMIT_MAX requests in the window (Retry-After). */
      429: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'Content-Language': components['headers']['Content-Language'];
          'Retry-After': components['headers']['Retry-After'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorBody'];
        };
      };
      /** @description Internal server error: `23503` The store function failed: PostgreSQL’s message, detail and SQLSTATE (code) are added. */
      500: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'Content-Language': components['headers']['Content-Language'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorBody'];
        };
      };
      /** @description Service unavailable: `TENANT_PROVISIONING` The tenant is still being created (Retry-After); `TENANT_SCHEMA_OUTDATED` The tenant’s database is behind this version of the service: the operator migrates it (Retry-After); `DATABASE_UNAVAILABLE` The tenant database (or the catalog) does not answer (Retry-After); `REQUEST_TIMEOUT` Not answered within REQUEST_TIMEOUT_MS (Retry-After). */
      503: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'Content-Language': components['headers']['Content-Language'];
          'Retry-After': components['headers']['Retry-After'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorBody'];
        };
      };
    };
  };
  RpcController_reportGastos_v1: {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody: {
      content: {
        'application/json': {
          [key: string]: unknown;
        };
      };
    };
    responses: {
      /** @description The store function’s JSON (`{}` when it returns nothing) */
      200: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            [key: string]: unknown;
          };
        };
      };
      /** @description Bad request: `TENANT_REQUIRED` No X-Tenant-ID header; `TENANT_INVALID` X-Tenant-ID is not a tenant slug; `INVALID_BODY` The JSON body is not an object (a string, a number, null, an array); `BAD_REQUEST` The body is not valid JSON. */
      400: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'Content-Language': components['headers']['Content-Language'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorBody'];
        };
      };
      /** @description Not authenticated: `UNAUTHENTICATED` No token, or a malformed, expired or badly signed one, or not an active user of the tenant (WWW-Authenticate). */
      401: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'Content-Language': components['headers']['Content-Language'];
          'WWW-Authenticate': components['headers']['WWW-Authenticate'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorBody'];
        };
      };
      /** @description Forbidden: `TENANT_MISMATCH` The token was issued for another tenant than X-Tenant-ID; `FORBIDDEN` The user's roles do not give the permission the route needs; `TENANT_SUSPENDED` The tenant is suspended. */
      403: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'Content-Language': components['headers']['Content-Language'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorBody'];
        };
      };
      /** @description Not found: `NOT_FOUND` The feature is switched off for this tenant: the answer of a route that does not exist; `TENANT_NOT_FOUND` No tenant has this slug. */
      404: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'Content-Language': components['headers']['Content-Language'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorBody'];
        };
      };
      /** @description Payload too large: `PAYLOAD_TOO_LARGE` The body is larger than BODY_LIMIT (a file: UPLOAD_MAX_BYTES). */
      413: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'Content-Language': components['headers']['Content-Language'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorBody'];
        };
      };
      /** @description Unsupported media type: `UNSUPPORTED_MEDIA_TYPE` The body came with another Content-Type than the route reads. */
      415: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'Content-Language': components['headers']['Content-Language'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorBody'];
        };
      };
      /** @description Too many requests: `RATE_LIMITED` Past RATE_LIMIT_MAX requests in the window (Retry-After). */
      429: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'Content-Language': components['headers']['Content-Language'];
          'Retry-After': components['headers']['Retry-After'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorBody'];
        };
      };
      /** @description Internal server error: `23503` The store function failed: PostgreSQL’s message, detail and SQLSTATE (code) are added. */
      500: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'Content-Language': components['headers']['Content-Language'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorBody'];
        };
      };
      /** @description Service unavailable: `TENANT_PROVISIONING` The tenant is still being created (Retry-After); `TENANT_SCHEMA_OUTDATED` The tenant’s database is behind this version of the service: the operator migrates it (Retry-After); `DATABASE_UNAVAILABLE` The tenant database (or the catalog) does not answer (Retry-After); `REQUEST_TIMEOUT` Not answered within REQUEST_TIMEOUT_MS (Retry-After). */
      503: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'Content-Language': components['headers']['Content-Language'];
          'Retry-After': components['headers']['Retry-After'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorBody'];
        };
      };
    };
  };
  SignInController_login_v1: {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody: {
      content: {
        'application/json': components['schemas']['LoginBody'];
      };
    };
    responses: {
      /** @description Signed in */
      200: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['SessionDto'];
        };
      };
      /** @description Bad request: `VALIDATION_FAILED` A field or parameter is missing, unknown or of the wrong type or range: one message per field; `TENANT_REQUIRED` No X-Tenant-ID header; `TENANT_INVALID` X-Tenant-ID is not a tenant slug; `INVALID_BODY` The JSON body is not an object (a string, a number, null, an array); `BAD_REQUEST` The body is not valid JSON. */
      400: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'Content-Language': components['headers']['Content-Language'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorBody'];
        };
      };
      /** @description Not authenticated: `INVALID_CREDENTIALS` Unknown document or user, wrong password or wrong PIN: one answer for all. */
      401: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'Content-Language': components['headers']['Content-Language'];
          'WWW-Authenticate': components['headers']['WWW-Authenticate'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorBody'];
        };
      };
      /** @description Forbidden: `TENANT_SUSPENDED` The tenant is suspended. */
      403: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'Content-Language': components['headers']['Content-Language'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorBody'];
        };
      };
      /** @description Not found: `SIGN_IN_NOT_AVAILABLE` Sign-in needs AUTH_MODE=jwt with AUTH_JWT_SECRET (tokens from another issuer otherwise); `TENANT_NOT_FOUND` No tenant has this slug. */
      404: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'Content-Language': components['headers']['Content-Language'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorBody'];
        };
      };
      /** @description Payload too large: `PAYLOAD_TOO_LARGE` The body is larger than BODY_LIMIT (a file: UPLOAD_MAX_BYTES). */
      413: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'Content-Language': components['headers']['Content-Language'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorBody'];
        };
      };
      /** @description Unsupported media type: `UNSUPPORTED_MEDIA_TYPE` The body came with another Content-Type than the route reads. */
      415: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'Content-Language': components['headers']['Content-Language'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorBody'];
        };
      };
      /** @description Too many requests: `TOO_MANY_ATTEMPTS` 5 failures within 15 minutes for this account (or this device, for PINs): wait Retry-After seconds; `SIGN_IN_BUSY` This client address already has SIGN_IN_QUEUE_PER_CLIENT sign-ins waiting for a hash: wait Retry-After seconds (nothing was checked or counted); `RATE_LIMITED` Past RATE_LIMIT_MAX requests in the window (Retry-After). */
      429: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'Content-Language': components['headers']['Content-Language'];
          'Retry-After': components['headers']['Retry-After'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorBody'];
        };
      };
      /** @description Service unavailable: `SIGN_IN_BUSY` This instance already has SIGN_IN_QUEUE_MAX sign-ins waiting for a hash: wait Retry-After seconds (another instance may have room); `TENANT_PROVISIONING` The tenant is still being created (Retry-After); `TENANT_SCHEMA_OUTDATED` The tenant’s database is behind this version of the service: the operator migrates it (Retry-After); `DATABASE_UNAVAILABLE` The tenant database (or the catalog) does not answer (Retry-After); `REQUEST_TIMEOUT` Not answered within REQUEST_TIMEOUT_MS (Retry-After). */
      503: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'Content-Language': components['headers']['Content-Language'];
          'Retry-After': components['headers']['Retry-After'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorBody'];
        };
      };
    };
  };
  SignInController_pin_v1: {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody: {
      content: {
        'application/json': components['schemas']['PinBody'];
      };
    };
    responses: {
      /** @description Signed in */
      200: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['SessionDto'];
        };
      };
      /** @description Bad request: `VALIDATION_FAILED` A field or parameter is missing, unknown or of the wrong type or range: one message per field; `TENANT_REQUIRED` No X-Tenant-ID header; `TENANT_INVALID` X-Tenant-ID is not a tenant slug; `INVALID_BODY` The JSON body is not an object (a string, a number, null, an array); `BAD_REQUEST` The body is not valid JSON. */
      400: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'Content-Language': components['headers']['Content-Language'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorBody'];
        };
      };
      /** @description Not authenticated: `INVALID_CREDENTIALS` Unknown document or user, wrong password or wrong PIN: one answer for all. */
      401: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'Content-Language': components['headers']['Content-Language'];
          'WWW-Authenticate': components['headers']['WWW-Authenticate'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorBody'];
        };
      };
      /** @description Forbidden: `TENANT_SUSPENDED` The tenant is suspended. */
      403: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'Content-Language': components['headers']['Content-Language'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorBody'];
        };
      };
      /** @description Not found: `SIGN_IN_NOT_AVAILABLE` Sign-in needs AUTH_MODE=jwt with AUTH_JWT_SECRET (tokens from another issuer otherwise); `TENANT_NOT_FOUND` No tenant has this slug. */
      404: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'Content-Language': components['headers']['Content-Language'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorBody'];
        };
      };
      /** @description Payload too large: `PAYLOAD_TOO_LARGE` The body is larger than BODY_LIMIT (a file: UPLOAD_MAX_BYTES). */
      413: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'Content-Language': components['headers']['Content-Language'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorBody'];
        };
      };
      /** @description Unsupported media type: `UNSUPPORTED_MEDIA_TYPE` The body came with another Content-Type than the route reads. */
      415: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'Content-Language': components['headers']['Content-Language'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorBody'];
        };
      };
      /** @description Too many requests: `TOO_MANY_ATTEMPTS` 5 failures within 15 minutes for this account (or this device, for PINs): wait Retry-After seconds; `SIGN_IN_BUSY` This client address already has SIGN_IN_QUEUE_PER_CLIENT sign-ins waiting for a hash: wait Retry-After seconds (nothing was checked or counted); `RATE_LIMITED` Past RATE_LIMIT_MAX requests in the window (Retry-After). */
      429: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'Content-Language': components['headers']['Content-Language'];
          'Retry-After': components['headers']['Retry-After'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorBody'];
        };
      };
      /** @description Service unavailable: `SIGN_IN_BUSY` This instance already has SIGN_IN_QUEUE_MAX sign-ins waiting for a hash: wait Retry-After seconds (another instance may have room); `TENANT_PROVISIONING` The tenant is still being created (Retry-After); `TENANT_SCHEMA_OUTDATED` The tenant’s database is behind this version of the service: the operator migrates it (Retry-After); `DATABASE_UNAVAILABLE` The tenant database (or the catalog) does not answer (Retry-After); `REQUEST_TIMEOUT` Not answered within REQUEST_TIMEOUT_MS (Retry-After). */
      503: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'Content-Language': components['headers']['Content-Language'];
          'Retry-After': components['headers']['Retry-After'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorBody'];
        };
      };
    };
  };
  SignInController_logout_v1: {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description Signed out */
      204: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          [name: string]: unknown;
        };
        content?: never;
      };
      /** @description Bad request: `TENANT_REQUIRED` No X-Tenant-ID header; `TENANT_INVALID` X-Tenant-ID is not a tenant slug. */
      400: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'Content-Language': components['headers']['Content-Language'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorBody'];
        };
      };
      /** @description Not authenticated: `UNAUTHENTICATED` No token, or a malformed, expired or badly signed one, or not an active user of the tenant (WWW-Authenticate). */
      401: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'Content-Language': components['headers']['Content-Language'];
          'WWW-Authenticate': components['headers']['WWW-Authenticate'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorBody'];
        };
      };
      /** @description Forbidden: `TENANT_MISMATCH` The token was issued for another tenant than X-Tenant-ID; `TENANT_SUSPENDED` The tenant is suspended. */
      403: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'Content-Language': components['headers']['Content-Language'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorBody'];
        };
      };
      /** @description Not found: `SIGN_IN_NOT_AVAILABLE` Sign-in needs AUTH_MODE=jwt with AUTH_JWT_SECRET (tokens from another issuer otherwise); `TENANT_NOT_FOUND` No tenant has this slug. */
      404: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'Content-Language': components['headers']['Content-Language'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorBody'];
        };
      };
      /** @description Conflict: `TOKEN_NOT_REVOCABLE` The token has no session id (made by npm run token or another issuer). */
      409: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'Content-Language': components['headers']['Content-Language'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorBody'];
        };
      };
      /** @description Too many requests: `RATE_LIMITED` Past RATE_LIMIT_MAX requests in the window (Retry-After). */
      429: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'Content-Language': components['headers']['Content-Language'];
          'Retry-After': components['headers']['Retry-After'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorBody'];
        };
      };
      /** @description Service unavailable: `TENANT_PROVISIONING` The tenant is still being created (Retry-After); `TENANT_SCHEMA_OUTDATED` The tenant’s database is behind this version of the service: the operator migrates it (Retry-After); `DATABASE_UNAVAILABLE` The tenant database (or the catalog) does not answer (Retry-After); `REQUEST_TIMEOUT` Not answered within REQUEST_TIMEOUT_MS (Retry-After). */
      503: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'Content-Language': components['headers']['Content-Language'];
          'Retry-After': components['headers']['Retry-After'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorBody'];
        };
      };
    };
  };
  CredentialsController_set_v1: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        /** @description A positive integer id */
        id: number;
      };
      cookie?: never;
    };
    requestBody: {
      content: {
        'application/json': components['schemas']['CredentialsBody'];
      };
    };
    responses: {
      /** @description What the user has now */
      200: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['CredentialsDto'];
        };
      };
      /** @description Bad request: `VALIDATION_FAILED` A password under 10 characters, or a trivial PIN; `EMPTY_CHANGE` Neither password nor pin was sent; `VALIDATION_FAILED` A field or parameter is missing, unknown or of the wrong type or range: one message per field; `TENANT_REQUIRED` No X-Tenant-ID header; `TENANT_INVALID` X-Tenant-ID is not a tenant slug; `INVALID_BODY` The JSON body is not an object (a string, a number, null, an array); `BAD_REQUEST` The body is not valid JSON; `INVALID_ID` A path id is not a positive integer of its range. */
      400: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'Content-Language': components['headers']['Content-Language'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorBody'];
        };
      };
      /** @description Not authenticated: `UNAUTHENTICATED` No token, or a malformed, expired or badly signed one, or not an active user of the tenant (WWW-Authenticate). */
      401: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'Content-Language': components['headers']['Content-Language'];
          'WWW-Authenticate': components['headers']['WWW-Authenticate'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorBody'];
        };
      };
      /** @description Forbidden: `TENANT_MISMATCH` The token was issued for another tenant than X-Tenant-ID; `FORBIDDEN` The user's roles do not give the permission the route needs; `TENANT_SUSPENDED` The tenant is suspended. */
      403: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'Content-Language': components['headers']['Content-Language'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorBody'];
        };
      };
      /** @description Not found: `USER_NOT_FOUND` No staff member has this id; `TENANT_NOT_FOUND` No tenant has this slug. */
      404: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'Content-Language': components['headers']['Content-Language'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorBody'];
        };
      };
      /** @description Conflict: `PIN_IN_USE` Another staff member has this PIN. */
      409: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'Content-Language': components['headers']['Content-Language'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorBody'];
        };
      };
      /** @description Payload too large: `PAYLOAD_TOO_LARGE` The body is larger than BODY_LIMIT (a file: UPLOAD_MAX_BYTES). */
      413: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'Content-Language': components['headers']['Content-Language'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorBody'];
        };
      };
      /** @description Unsupported media type: `UNSUPPORTED_MEDIA_TYPE` The body came with another Content-Type than the route reads. */
      415: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'Content-Language': components['headers']['Content-Language'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorBody'];
        };
      };
      /** @description Too many requests: `RATE_LIMITED` Past RATE_LIMIT_MAX requests in the window (Retry-After). */
      429: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'Content-Language': components['headers']['Content-Language'];
          'Retry-After': components['headers']['Retry-After'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorBody'];
        };
      };
      /** @description Service unavailable: `TENANT_PROVISIONING` The tenant is still being created (Retry-After); `TENANT_SCHEMA_OUTDATED` The tenant’s database is behind this version of the service: the operator migrates it (Retry-After); `DATABASE_UNAVAILABLE` The tenant database (or the catalog) does not answer (Retry-After); `REQUEST_TIMEOUT` Not answered within REQUEST_TIMEOUT_MS (Retry-After). */
      503: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'Content-Language': components['headers']['Content-Language'];
          'Retry-After': components['headers']['Retry-After'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorBody'];
        };
      };
    };
  };
  CobrosController_pay_v1: {
    parameters: {
      query?: never;
      header?: {
        /** @description The ETag of the resource as last read ("3"): 412 STALE_VERSION when it changed since */
        'If-Match'?: string;
        /** @description Makes a retry safe: the same key with the same request within IDEMPOTENCY_TTL_HOURS answers what the first answered (with Idempotent-Replayed: true) and does nothing again. 1 to 255 visible ASCII characters, one per intended change (a UUID). */
        'Idempotency-Key'?: string;
      };
      path: {
        /** @description A positive integer id */
        id: number;
      };
      cookie?: never;
    };
    requestBody: {
      content: {
        'application/json': components['schemas']['PagoInput'];
      };
    };
    responses: {
      /** @description The comanda with the payment and its bill */
      201: {
        headers: {
          /** @description The version, quoted ("3"): send it back in If-Match */
          ETag?: string;
          'X-Request-Id': components['headers']['X-Request-Id'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ComandaDetail'];
        };
      };
      /** @description Bad request: `IDEMPOTENCY_KEY_INVALID` Idempotency-Key is empty, longer than 255 characters, not visible ASCII, or sent twice; `VALIDATION_FAILED` A field or parameter is missing, unknown or of the wrong type or range: one message per field; `METODO_PAGO_NOT_FOUND` id_metodo_pago names no method in use; `RECIBIDO_SOLO_EFECTIVO` recibido with a method that is not cash; `RECIBIDO_INSUFICIENTE` The cash handed over is less than the amount and the tip; `CAJA_NOT_FOUND` id_caja names no till; `CAJA_REQUERIDA` Several tills are open: name one with id_caja; `TENANT_REQUIRED` No X-Tenant-ID header; `TENANT_INVALID` X-Tenant-ID is not a tenant slug; `INVALID_BODY` The JSON body is not an object (a string, a number, null, an array); `BAD_REQUEST` The body is not valid JSON; `INVALID_IF_MATCH` If-Match is not an ETag such as "3"; `INVALID_ID` A path id is not a positive integer of its range. */
      400: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'Content-Language': components['headers']['Content-Language'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorBody'];
        };
      };
      /** @description Not authenticated: `UNAUTHENTICATED` No token, or a malformed, expired or badly signed one, or not an active user of the tenant (WWW-Authenticate). */
      401: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'Content-Language': components['headers']['Content-Language'];
          'WWW-Authenticate': components['headers']['WWW-Authenticate'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorBody'];
        };
      };
      /** @description Forbidden: `TENANT_MISMATCH` The token was issued for another tenant than X-Tenant-ID; `FORBIDDEN` The user's roles do not give the permission the route needs; `TENANT_SUSPENDED` The tenant is suspended. */
      403: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'Content-Language': components['headers']['Content-Language'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorBody'];
        };
      };
      /** @description Not found: `COMANDA_NOT_FOUND` No comanda has this id; `NOT_FOUND` The feature is switched off for this tenant: the answer of a route that does not exist; `TENANT_NOT_FOUND` No tenant has this slug. */
      404: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'Content-Language': components['headers']['Content-Language'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorBody'];
        };
      };
      /** @description Conflict: `IDEMPOTENCY_KEY_IN_USE` A request with this Idempotency-Key is still running: retry after Retry-After seconds; `SIN_SESION_ABIERTA` No open till session takes the money; `PAGO_EXCEDE_SALDO` Not cash, above the balance (or nothing is due); `INVALID_TRANSITION` The comanda is not abierta. */
      409: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'Content-Language': components['headers']['Content-Language'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorBody'];
        };
      };
      /** @description Precondition failed: `STALE_VERSION` If-Match names another version than the current one. */
      412: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'Content-Language': components['headers']['Content-Language'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorBody'];
        };
      };
      /** @description Payload too large: `PAYLOAD_TOO_LARGE` The body is larger than BODY_LIMIT (a file: UPLOAD_MAX_BYTES). */
      413: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'Content-Language': components['headers']['Content-Language'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorBody'];
        };
      };
      /** @description Unsupported media type: `UNSUPPORTED_MEDIA_TYPE` The body came with another Content-Type than the route reads. */
      415: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'Content-Language': components['headers']['Content-Language'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorBody'];
        };
      };
      /** @description Unprocessable content: `IDEMPOTENCY_KEY_REUSED` This Idempotency-Key was used for another request (method, route, ids or body). */
      422: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'Content-Language': components['headers']['Content-Language'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorBody'];
        };
      };
      /** @description Too many requests: `RATE_LIMITED` Past RATE_LIMIT_MAX requests in the window (Retry-After). */
      429: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'Content-Language': components['headers']['Content-Language'];
          'Retry-After': components['headers']['Retry-After'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorBody'];
        };
      };
      /** @description Service unavailable: `57014` A statement ran longer than DB_STATEMENT_TIMEOUT_MS and was cancelled (Retry-After); `TENANT_PROVISIONING` The tenant is still being created (Retry-After); `TENANT_SCHEMA_OUTDATED` The tenant’s database is behind this version of the service: the operator migrates it (Retry-After); `DATABASE_UNAVAILABLE` The tenant database (or the catalog) does not answer (Retry-After); `REQUEST_TIMEOUT` Not answered within REQUEST_TIMEOUT_MS (Retry-After). */
      503: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'Content-Language': components['headers']['Content-Language'];
          'Retry-After': components['headers']['Retry-After'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorBody'];
        };
      };
    };
  };
  CobrosController_simulatePayment_v1: {
    parameters: {
      query?: never;
      header?: {
        /** @description The ETag of the resource as last read ("3"): 412 STALE_VERSION when it changed since */
        'If-Match'?: string;
      };
      path: {
        /** @description A positive integer id */
        id: number;
      };
      cookie?: never;
    };
    requestBody: {
      content: {
        'application/json': components['schemas']['PagoInput'];
      };
    };
    responses: {
      /** @description The payment as it would be taken, and the bill after it */
      200: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['SimulacionPagoDto'];
        };
      };
      /** @description Bad request: `VALIDATION_FAILED` A field or parameter is missing, unknown or of the wrong type or range: one message per field; `METODO_PAGO_NOT_FOUND` id_metodo_pago names no method in use; `RECIBIDO_SOLO_EFECTIVO` recibido with a method that is not cash; `RECIBIDO_INSUFICIENTE` The cash handed over is less than the amount and the tip; `CAJA_NOT_FOUND` id_caja names no till; `CAJA_REQUERIDA` Several tills are open: name one with id_caja; `TENANT_REQUIRED` No X-Tenant-ID header; `TENANT_INVALID` X-Tenant-ID is not a tenant slug; `INVALID_BODY` The JSON body is not an object (a string, a number, null, an array); `BAD_REQUEST` The body is not valid JSON; `INVALID_IF_MATCH` If-Match is not an ETag such as "3"; `INVALID_ID` A path id is not a positive integer of its range. */
      400: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'Content-Language': components['headers']['Content-Language'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorBody'];
        };
      };
      /** @description Not authenticated: `UNAUTHENTICATED` No token, or a malformed, expired or badly signed one, or not an active user of the tenant (WWW-Authenticate). */
      401: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'Content-Language': components['headers']['Content-Language'];
          'WWW-Authenticate': components['headers']['WWW-Authenticate'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorBody'];
        };
      };
      /** @description Forbidden: `TENANT_MISMATCH` The token was issued for another tenant than X-Tenant-ID; `FORBIDDEN` The user's roles do not give the permission the route needs; `TENANT_SUSPENDED` The tenant is suspended. */
      403: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'Content-Language': components['headers']['Content-Language'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorBody'];
        };
      };
      /** @description Not found: `COMANDA_NOT_FOUND` No comanda has this id; `NOT_FOUND` The feature is switched off for this tenant: the answer of a route that does not exist; `TENANT_NOT_FOUND` No tenant has this slug. */
      404: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'Content-Language': components['headers']['Content-Language'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorBody'];
        };
      };
      /** @description Conflict: `SIN_SESION_ABIERTA` No open till session takes the money; `PAGO_EXCEDE_SALDO` Not cash, above the balance (or nothing is due); `INVALID_TRANSITION` The comanda is not abierta. */
      409: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'Content-Language': components['headers']['Content-Language'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorBody'];
        };
      };
      /** @description Precondition failed: `STALE_VERSION` If-Match names another version than the current one. */
      412: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'Content-Language': components['headers']['Content-Language'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorBody'];
        };
      };
      /** @description Payload too large: `PAYLOAD_TOO_LARGE` The body is larger than BODY_LIMIT (a file: UPLOAD_MAX_BYTES). */
      413: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'Content-Language': components['headers']['Content-Language'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorBody'];
        };
      };
      /** @description Unsupported media type: `UNSUPPORTED_MEDIA_TYPE` The body came with another Content-Type than the route reads. */
      415: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'Content-Language': components['headers']['Content-Language'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorBody'];
        };
      };
      /** @description Too many requests: `RATE_LIMITED` Past RATE_LIMIT_MAX requests in the window (Retry-After). */
      429: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'Content-Language': components['headers']['Content-Language'];
          'Retry-After': components['headers']['Retry-After'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorBody'];
        };
      };
      /** @description Service unavailable: `57014` A statement ran longer than DB_STATEMENT_TIMEOUT_MS and was cancelled (Retry-After); `TENANT_PROVISIONING` The tenant is still being created (Retry-After); `TENANT_SCHEMA_OUTDATED` The tenant’s database is behind this version of the service: the operator migrates it (Retry-After); `DATABASE_UNAVAILABLE` The tenant database (or the catalog) does not answer (Retry-After); `REQUEST_TIMEOUT` Not answered within REQUEST_TIMEOUT_MS (Retry-After). */
      503: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'Content-Language': components['headers']['Content-Language'];
          'Retry-After': components['headers']['Retry-After'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorBody'];
        };
      };
    };
  };
  CobrosController_voidPayment_v1: {
    parameters: {
      query?: {
        /** @description Why it is voided (or motivo in the body; one of them is required) */
        motivo?: string;
      };
      header?: {
        /** @description The ETag of the resource as last read ("3"): 412 STALE_VERSION when it changed since */
        'If-Match'?: string;
        /** @description Makes a retry safe: the same key with the same request within IDEMPOTENCY_TTL_HOURS answers what the first answered (with Idempotent-Replayed: true) and does nothing again. 1 to 255 visible ASCII characters, one per intended change (a UUID). */
        'Idempotency-Key'?: string;
      };
      path: {
        /** @description A positive integer id */
        id: number;
        /** @description A positive integer id */
        idPago: number;
      };
      cookie?: never;
    };
    requestBody?: {
      content: {
        'application/json': components['schemas']['AnularPagoBody'];
      };
    };
    responses: {
      /** @description The comanda with the payment voided */
      200: {
        headers: {
          /** @description The version, quoted ("3"): send it back in If-Match */
          ETag?: string;
          'X-Request-Id': components['headers']['X-Request-Id'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ComandaDetail'];
        };
      };
      /** @description Bad request: `IDEMPOTENCY_KEY_INVALID` Idempotency-Key is empty, longer than 255 characters, not visible ASCII, or sent twice; `VALIDATION_FAILED` A field or parameter is missing, unknown or of the wrong type or range: one message per field; `TENANT_REQUIRED` No X-Tenant-ID header; `TENANT_INVALID` X-Tenant-ID is not a tenant slug; `INVALID_BODY` The JSON body is not an object (a string, a number, null, an array); `BAD_REQUEST` The body is not valid JSON; `INVALID_IF_MATCH` If-Match is not an ETag such as "3"; `INVALID_ID` A path id is not a positive integer of its range; `INVALID_ID` A path id is not a positive integer of its range. */
      400: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'Content-Language': components['headers']['Content-Language'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorBody'];
        };
      };
      /** @description Not authenticated: `UNAUTHENTICATED` No token, or a malformed, expired or badly signed one, or not an active user of the tenant (WWW-Authenticate). */
      401: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'Content-Language': components['headers']['Content-Language'];
          'WWW-Authenticate': components['headers']['WWW-Authenticate'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorBody'];
        };
      };
      /** @description Forbidden: `TENANT_MISMATCH` The token was issued for another tenant than X-Tenant-ID; `FORBIDDEN` The user's roles do not give the permission the route needs; `TENANT_SUSPENDED` The tenant is suspended. */
      403: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'Content-Language': components['headers']['Content-Language'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorBody'];
        };
      };
      /** @description Not found: `COMANDA_NOT_FOUND` No comanda has this id; `PAGO_NOT_FOUND` The comanda has no payment with this id; `NOT_FOUND` The feature is switched off for this tenant: the answer of a route that does not exist; `TENANT_NOT_FOUND` No tenant has this slug. */
      404: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'Content-Language': components['headers']['Content-Language'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorBody'];
        };
      };
      /** @description Conflict: `IDEMPOTENCY_KEY_IN_USE` A request with this Idempotency-Key is still running: retry after Retry-After seconds; `PAGO_ANULADO` The payment is voided; `SESION_CERRADA` The session is closed: it never changes; `INVALID_TRANSITION` The comanda is not abierta. */
      409: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'Content-Language': components['headers']['Content-Language'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorBody'];
        };
      };
      /** @description Precondition failed: `STALE_VERSION` If-Match names another version than the current one. */
      412: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'Content-Language': components['headers']['Content-Language'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorBody'];
        };
      };
      /** @description Payload too large: `PAYLOAD_TOO_LARGE` The body is larger than BODY_LIMIT (a file: UPLOAD_MAX_BYTES). */
      413: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'Content-Language': components['headers']['Content-Language'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorBody'];
        };
      };
      /** @description Unsupported media type: `UNSUPPORTED_MEDIA_TYPE` The body came with another Content-Type than the route reads. */
      415: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'Content-Language': components['headers']['Content-Language'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorBody'];
        };
      };
      /** @description Unprocessable content: `IDEMPOTENCY_KEY_REUSED` This Idempotency-Key was used for another request (method, route, ids or body). */
      422: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'Content-Language': components['headers']['Content-Language'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorBody'];
        };
      };
      /** @description Too many requests: `RATE_LIMITED` Past RATE_LIMIT_MAX requests in the window (Retry-After). */
      429: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'Content-Language': components['headers']['Content-Language'];
          'Retry-After': components['headers']['Retry-After'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorBody'];
        };
      };
      /** @description Service unavailable: `57014` A statement ran longer than DB_STATEMENT_TIMEOUT_MS and was cancelled (Retry-After); `TENANT_PROVISIONING` The tenant is still being created (Retry-After); `TENANT_SCHEMA_OUTDATED` The tenant’s database is behind this version of the service: the operator migrates it (Retry-After); `DATABASE_UNAVAILABLE` The tenant database (or the catalog) does not answer (Retry-After); `REQUEST_TIMEOUT` Not answered within REQUEST_TIMEOUT_MS (Retry-After). */
      503: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'Content-Language': components['headers']['Content-Language'];
          'Retry-After': components['headers']['Retry-After'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorBody'];
        };
      };
    };
  };
  CobrosController_refund_v1: {
    parameters: {
      query?: never;
      header?: {
        /** @description The ETag of the resource as last read ("3"): 412 STALE_VERSION when it changed since */
        'If-Match'?: string;
        /** @description Makes a retry safe: the same key with the same request within IDEMPOTENCY_TTL_HOURS answers what the first answered (with Idempotent-Replayed: true) and does nothing again. 1 to 255 visible ASCII characters, one per intended change (a UUID). */
        'Idempotency-Key'?: string;
      };
      path: {
        /** @description A positive integer id */
        id: number;
      };
      cookie?: never;
    };
    requestBody: {
      content: {
        'application/json': components['schemas']['ReembolsoBody'];
      };
    };
    responses: {
      /** @description The comanda with the refund */
      201: {
        headers: {
          /** @description The version, quoted ("3"): send it back in If-Match */
          ETag?: string;
          'X-Request-Id': components['headers']['X-Request-Id'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ComandaDetail'];
        };
      };
      /** @description Bad request: `IDEMPOTENCY_KEY_INVALID` Idempotency-Key is empty, longer than 255 characters, not visible ASCII, or sent twice; `VALIDATION_FAILED` A field or parameter is missing, unknown or of the wrong type or range: one message per field; `INVALID_REFUND_LINES` A listed line is not the comanda’s, or asks for more than it holds; `CAJA_NOT_FOUND` id_caja names no till; `CAJA_REQUERIDA` Several tills are open: name one with id_caja; `TENANT_REQUIRED` No X-Tenant-ID header; `TENANT_INVALID` X-Tenant-ID is not a tenant slug; `INVALID_BODY` The JSON body is not an object (a string, a number, null, an array); `BAD_REQUEST` The body is not valid JSON; `INVALID_IF_MATCH` If-Match is not an ETag such as "3"; `INVALID_ID` A path id is not a positive integer of its range. */
      400: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'Content-Language': components['headers']['Content-Language'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorBody'];
        };
      };
      /** @description Not authenticated: `UNAUTHENTICATED` No token, or a malformed, expired or badly signed one, or not an active user of the tenant (WWW-Authenticate). */
      401: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'Content-Language': components['headers']['Content-Language'];
          'WWW-Authenticate': components['headers']['WWW-Authenticate'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorBody'];
        };
      };
      /** @description Forbidden: `TENANT_MISMATCH` The token was issued for another tenant than X-Tenant-ID; `FORBIDDEN` The user's roles do not give the permission the route needs; `TENANT_SUSPENDED` The tenant is suspended. */
      403: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'Content-Language': components['headers']['Content-Language'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorBody'];
        };
      };
      /** @description Not found: `COMANDA_NOT_FOUND` No comanda has this id; `PAGO_NOT_FOUND` The comanda has no payment with this id; `NOT_FOUND` The feature is switched off for this tenant: the answer of a route that does not exist; `TENANT_NOT_FOUND` No tenant has this slug. */
      404: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'Content-Language': components['headers']['Content-Language'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorBody'];
        };
      };
      /** @description Conflict: `IDEMPOTENCY_KEY_IN_USE` A request with this Idempotency-Key is still running: retry after Retry-After seconds; `SIN_SESION_ABIERTA` No open till session takes the money; `PAGO_ANULADO` The payment is voided; `REEMBOLSO_EXCEDE_PAGO` The refunds of a payment would exceed its monto; `INVALID_TRANSITION` The comanda is not cerrada. */
      409: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'Content-Language': components['headers']['Content-Language'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorBody'];
        };
      };
      /** @description Precondition failed: `STALE_VERSION` If-Match names another version than the current one. */
      412: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'Content-Language': components['headers']['Content-Language'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorBody'];
        };
      };
      /** @description Payload too large: `PAYLOAD_TOO_LARGE` The body is larger than BODY_LIMIT (a file: UPLOAD_MAX_BYTES). */
      413: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'Content-Language': components['headers']['Content-Language'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorBody'];
        };
      };
      /** @description Unsupported media type: `UNSUPPORTED_MEDIA_TYPE` The body came with another Content-Type than the route reads. */
      415: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'Content-Language': components['headers']['Content-Language'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorBody'];
        };
      };
      /** @description Unprocessable content: `IDEMPOTENCY_KEY_REUSED` This Idempotency-Key was used for another request (method, route, ids or body). */
      422: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'Content-Language': components['headers']['Content-Language'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorBody'];
        };
      };
      /** @description Too many requests: `RATE_LIMITED` Past RATE_LIMIT_MAX requests in the window (Retry-After). */
      429: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'Content-Language': components['headers']['Content-Language'];
          'Retry-After': components['headers']['Retry-After'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorBody'];
        };
      };
      /** @description Service unavailable: `57014` A statement ran longer than DB_STATEMENT_TIMEOUT_MS and was cancelled (Retry-After); `TENANT_PROVISIONING` The tenant is still being created (Retry-After); `TENANT_SCHEMA_OUTDATED` The tenant’s database is behind this version of the service: the operator migrates it (Retry-After); `DATABASE_UNAVAILABLE` The tenant database (or the catalog) does not answer (Retry-After); `REQUEST_TIMEOUT` Not answered within REQUEST_TIMEOUT_MS (Retry-After). */
      503: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'Content-Language': components['headers']['Content-Language'];
          'Retry-After': components['headers']['Retry-After'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorBody'];
        };
      };
    };
  };
  CobrosController_discount_v1: {
    parameters: {
      query?: never;
      header?: {
        /** @description The ETag of the resource as last read ("3"): 412 STALE_VERSION when it changed since */
        'If-Match'?: string;
        /** @description Makes a retry safe: the same key with the same request within IDEMPOTENCY_TTL_HOURS answers what the first answered (with Idempotent-Replayed: true) and does nothing again. 1 to 255 visible ASCII characters, one per intended change (a UUID). */
        'Idempotency-Key'?: string;
      };
      path: {
        /** @description A positive integer id */
        id: number;
      };
      cookie?: never;
    };
    requestBody: {
      content: {
        'application/json': components['schemas']['DescuentoBody'];
      };
    };
    responses: {
      /** @description The comanda with its new bill */
      201: {
        headers: {
          /** @description The version, quoted ("3"): send it back in If-Match */
          ETag?: string;
          'X-Request-Id': components['headers']['X-Request-Id'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ComandaDetail'];
        };
      };
      /** @description Bad request: `IDEMPOTENCY_KEY_INVALID` Idempotency-Key is empty, longer than 255 characters, not visible ASCII, or sent twice; `VALIDATION_FAILED` A field or parameter is missing, unknown or of the wrong type or range: one message per field; `DESCUENTO_EXCEDE` Above 100 % or above the sum of the lines; `TENANT_REQUIRED` No X-Tenant-ID header; `TENANT_INVALID` X-Tenant-ID is not a tenant slug; `INVALID_BODY` The JSON body is not an object (a string, a number, null, an array); `BAD_REQUEST` The body is not valid JSON; `INVALID_IF_MATCH` If-Match is not an ETag such as "3"; `INVALID_ID` A path id is not a positive integer of its range. */
      400: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'Content-Language': components['headers']['Content-Language'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorBody'];
        };
      };
      /** @description Not authenticated: `UNAUTHENTICATED` No token, or a malformed, expired or badly signed one, or not an active user of the tenant (WWW-Authenticate). */
      401: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'Content-Language': components['headers']['Content-Language'];
          'WWW-Authenticate': components['headers']['WWW-Authenticate'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorBody'];
        };
      };
      /** @description Forbidden: `TENANT_MISMATCH` The token was issued for another tenant than X-Tenant-ID; `FORBIDDEN` The user's roles do not give the permission the route needs; `TENANT_SUSPENDED` The tenant is suspended. */
      403: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'Content-Language': components['headers']['Content-Language'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorBody'];
        };
      };
      /** @description Not found: `COMANDA_NOT_FOUND` No comanda has this id; `NOT_FOUND` The feature is switched off for this tenant: the answer of a route that does not exist; `TENANT_NOT_FOUND` No tenant has this slug. */
      404: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'Content-Language': components['headers']['Content-Language'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorBody'];
        };
      };
      /** @description Conflict: `IDEMPOTENCY_KEY_IN_USE` A request with this Idempotency-Key is still running: retry after Retry-After seconds; `INVALID_TRANSITION` The comanda is not abierta. */
      409: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'Content-Language': components['headers']['Content-Language'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorBody'];
        };
      };
      /** @description Precondition failed: `STALE_VERSION` If-Match names another version than the current one. */
      412: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'Content-Language': components['headers']['Content-Language'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorBody'];
        };
      };
      /** @description Payload too large: `PAYLOAD_TOO_LARGE` The body is larger than BODY_LIMIT (a file: UPLOAD_MAX_BYTES). */
      413: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'Content-Language': components['headers']['Content-Language'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorBody'];
        };
      };
      /** @description Unsupported media type: `UNSUPPORTED_MEDIA_TYPE` The body came with another Content-Type than the route reads. */
      415: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'Content-Language': components['headers']['Content-Language'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorBody'];
        };
      };
      /** @description Unprocessable content: `IDEMPOTENCY_KEY_REUSED` This Idempotency-Key was used for another request (method, route, ids or body). */
      422: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'Content-Language': components['headers']['Content-Language'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorBody'];
        };
      };
      /** @description Too many requests: `RATE_LIMITED` Past RATE_LIMIT_MAX requests in the window (Retry-After). */
      429: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'Content-Language': components['headers']['Content-Language'];
          'Retry-After': components['headers']['Retry-After'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorBody'];
        };
      };
      /** @description Service unavailable: `57014` A statement ran longer than DB_STATEMENT_TIMEOUT_MS and was cancelled (Retry-After); `TENANT_PROVISIONING` The tenant is still being created (Retry-After); `TENANT_SCHEMA_OUTDATED` The tenant’s database is behind this version of the service: the operator migrates it (Retry-After); `DATABASE_UNAVAILABLE` The tenant database (or the catalog) does not answer (Retry-After); `REQUEST_TIMEOUT` Not answered within REQUEST_TIMEOUT_MS (Retry-After). */
      503: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'Content-Language': components['headers']['Content-Language'];
          'Retry-After': components['headers']['Retry-After'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorBody'];
        };
      };
    };
  };
  CajasController_metodos_v1: {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description The methods, in their order */
      200: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['MetodoPagoDto'][];
        };
      };
      /** @description Bad request: `TENANT_REQUIRED` No X-Tenant-ID header; `TENANT_INVALID` X-Tenant-ID is not a tenant slug. */
      400: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'Content-Language': components['headers']['Content-Language'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorBody'];
        };
      };
      /** @description Not authenticated: `UNAUTHENTICATED` No token, or a malformed, expired or badly signed one, or not an active user of the tenant (WWW-Authenticate). */
      401: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'Content-Language': components['headers']['Content-Language'];
          'WWW-Authenticate': components['headers']['WWW-Authenticate'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorBody'];
        };
      };
      /** @description Forbidden: `TENANT_MISMATCH` The token was issued for another tenant than X-Tenant-ID; `FORBIDDEN` The user's roles do not give the permission the route needs; `TENANT_SUSPENDED` The tenant is suspended. */
      403: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'Content-Language': components['headers']['Content-Language'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorBody'];
        };
      };
      /** @description Not found: `NOT_FOUND` The feature is switched off for this tenant: the answer of a route that does not exist; `TENANT_NOT_FOUND` No tenant has this slug. */
      404: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'Content-Language': components['headers']['Content-Language'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorBody'];
        };
      };
      /** @description Too many requests: `RATE_LIMITED` Past RATE_LIMIT_MAX requests in the window (Retry-After). */
      429: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'Content-Language': components['headers']['Content-Language'];
          'Retry-After': components['headers']['Retry-After'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorBody'];
        };
      };
      /** @description Service unavailable: `57014` A statement ran longer than DB_STATEMENT_TIMEOUT_MS and was cancelled (Retry-After); `TENANT_PROVISIONING` The tenant is still being created (Retry-After); `TENANT_SCHEMA_OUTDATED` The tenant’s database is behind this version of the service: the operator migrates it (Retry-After); `DATABASE_UNAVAILABLE` The tenant database (or the catalog) does not answer (Retry-After); `REQUEST_TIMEOUT` Not answered within REQUEST_TIMEOUT_MS (Retry-After). */
      503: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'Content-Language': components['headers']['Content-Language'];
          'Retry-After': components['headers']['Retry-After'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorBody'];
        };
      };
    };
  };
  CajasController_list_v1: {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description The tills */
      200: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['CajaDto'][];
        };
      };
      /** @description Bad request: `TENANT_REQUIRED` No X-Tenant-ID header; `TENANT_INVALID` X-Tenant-ID is not a tenant slug. */
      400: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'Content-Language': components['headers']['Content-Language'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorBody'];
        };
      };
      /** @description Not authenticated: `UNAUTHENTICATED` No token, or a malformed, expired or badly signed one, or not an active user of the tenant (WWW-Authenticate). */
      401: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'Content-Language': components['headers']['Content-Language'];
          'WWW-Authenticate': components['headers']['WWW-Authenticate'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorBody'];
        };
      };
      /** @description Forbidden: `TENANT_MISMATCH` The token was issued for another tenant than X-Tenant-ID; `FORBIDDEN` The user's roles do not give the permission the route needs; `TENANT_SUSPENDED` The tenant is suspended. */
      403: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'Content-Language': components['headers']['Content-Language'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorBody'];
        };
      };
      /** @description Not found: `NOT_FOUND` The feature is switched off for this tenant: the answer of a route that does not exist; `TENANT_NOT_FOUND` No tenant has this slug. */
      404: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'Content-Language': components['headers']['Content-Language'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorBody'];
        };
      };
      /** @description Too many requests: `RATE_LIMITED` Past RATE_LIMIT_MAX requests in the window (Retry-After). */
      429: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'Content-Language': components['headers']['Content-Language'];
          'Retry-After': components['headers']['Retry-After'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorBody'];
        };
      };
      /** @description Service unavailable: `57014` A statement ran longer than DB_STATEMENT_TIMEOUT_MS and was cancelled (Retry-After); `TENANT_PROVISIONING` The tenant is still being created (Retry-After); `TENANT_SCHEMA_OUTDATED` The tenant’s database is behind this version of the service: the operator migrates it (Retry-After); `DATABASE_UNAVAILABLE` The tenant database (or the catalog) does not answer (Retry-After); `REQUEST_TIMEOUT` Not answered within REQUEST_TIMEOUT_MS (Retry-After). */
      503: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'Content-Language': components['headers']['Content-Language'];
          'Retry-After': components['headers']['Retry-After'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorBody'];
        };
      };
    };
  };
  CajasController_open_v1: {
    parameters: {
      query?: never;
      header?: {
        /** @description Makes a retry safe: the same key with the same request within IDEMPOTENCY_TTL_HOURS answers what the first answered (with Idempotent-Replayed: true) and does nothing again. 1 to 255 visible ASCII characters, one per intended change (a UUID). */
        'Idempotency-Key'?: string;
      };
      path: {
        /** @description A positive integer id */
        id: number;
      };
      cookie?: never;
    };
    requestBody: {
      content: {
        'application/json': components['schemas']['AbrirSesionBody'];
      };
    };
    responses: {
      /** @description The new session, with its X */
      201: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ReporteCajaDto'];
        };
      };
      /** @description Bad request: `IDEMPOTENCY_KEY_INVALID` Idempotency-Key is empty, longer than 255 characters, not visible ASCII, or sent twice; `VALIDATION_FAILED` A field or parameter is missing, unknown or of the wrong type or range: one message per field; `TENANT_REQUIRED` No X-Tenant-ID header; `TENANT_INVALID` X-Tenant-ID is not a tenant slug; `INVALID_BODY` The JSON body is not an object (a string, a number, null, an array); `BAD_REQUEST` The body is not valid JSON; `INVALID_ID` A path id is not a positive integer of its range. */
      400: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'Content-Language': components['headers']['Content-Language'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorBody'];
        };
      };
      /** @description Not authenticated: `UNAUTHENTICATED` No token, or a malformed, expired or badly signed one, or not an active user of the tenant (WWW-Authenticate). */
      401: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'Content-Language': components['headers']['Content-Language'];
          'WWW-Authenticate': components['headers']['WWW-Authenticate'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorBody'];
        };
      };
      /** @description Forbidden: `TENANT_MISMATCH` The token was issued for another tenant than X-Tenant-ID; `FORBIDDEN` The user's roles do not give the permission the route needs; `TENANT_SUSPENDED` The tenant is suspended. */
      403: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'Content-Language': components['headers']['Content-Language'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorBody'];
        };
      };
      /** @description Not found: `CAJA_NOT_FOUND` No till has this id; `NOT_FOUND` The feature is switched off for this tenant: the answer of a route that does not exist; `TENANT_NOT_FOUND` No tenant has this slug. */
      404: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'Content-Language': components['headers']['Content-Language'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorBody'];
        };
      };
      /** @description Conflict: `IDEMPOTENCY_KEY_IN_USE` A request with this Idempotency-Key is still running: retry after Retry-After seconds; `SESION_YA_ABIERTA` The till has an open session already. */
      409: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'Content-Language': components['headers']['Content-Language'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorBody'];
        };
      };
      /** @description Payload too large: `PAYLOAD_TOO_LARGE` The body is larger than BODY_LIMIT (a file: UPLOAD_MAX_BYTES). */
      413: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'Content-Language': components['headers']['Content-Language'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorBody'];
        };
      };
      /** @description Unsupported media type: `UNSUPPORTED_MEDIA_TYPE` The body came with another Content-Type than the route reads. */
      415: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'Content-Language': components['headers']['Content-Language'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorBody'];
        };
      };
      /** @description Unprocessable content: `IDEMPOTENCY_KEY_REUSED` This Idempotency-Key was used for another request (method, route, ids or body). */
      422: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'Content-Language': components['headers']['Content-Language'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorBody'];
        };
      };
      /** @description Too many requests: `RATE_LIMITED` Past RATE_LIMIT_MAX requests in the window (Retry-After). */
      429: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'Content-Language': components['headers']['Content-Language'];
          'Retry-After': components['headers']['Retry-After'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorBody'];
        };
      };
      /** @description Service unavailable: `57014` A statement ran longer than DB_STATEMENT_TIMEOUT_MS and was cancelled (Retry-After); `TENANT_PROVISIONING` The tenant is still being created (Retry-After); `TENANT_SCHEMA_OUTDATED` The tenant’s database is behind this version of the service: the operator migrates it (Retry-After); `DATABASE_UNAVAILABLE` The tenant database (or the catalog) does not answer (Retry-After); `REQUEST_TIMEOUT` Not answered within REQUEST_TIMEOUT_MS (Retry-After). */
      503: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'Content-Language': components['headers']['Content-Language'];
          'Retry-After': components['headers']['Retry-After'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorBody'];
        };
      };
    };
  };
  CajasController_sessions_v1: {
    parameters: {
      query?: {
        /** @description Only sessions of this till */
        id_caja?: number;
        estado?: 'abierta' | 'cerrada';
        /** @description Opened on or after this day (YYYY-MM-DD, tenant time zone) */
        desde?: string;
        /** @description Opened on or before this day (YYYY-MM-DD, tenant time zone) */
        hasta?: string;
        /** @description Page size (above the maximum is 400, not cut) */
        limit?: number;
        /** @description Sessions skipped before the page */
        offset?: number;
      };
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description A page of sessions */
      200: {
        headers: {
          /** @description Sessions matching the filters, whatever the page */
          'X-Total-Count'?: number;
          'X-Request-Id': components['headers']['X-Request-Id'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['SesionCajaDto'][];
        };
      };
      /** @description Bad request: `VALIDATION_FAILED` A field or parameter is missing, unknown or of the wrong type or range: one message per field; `TENANT_REQUIRED` No X-Tenant-ID header; `TENANT_INVALID` X-Tenant-ID is not a tenant slug. */
      400: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'Content-Language': components['headers']['Content-Language'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorBody'];
        };
      };
      /** @description Not authenticated: `UNAUTHENTICATED` No token, or a malformed, expired or badly signed one, or not an active user of the tenant (WWW-Authenticate). */
      401: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'Content-Language': components['headers']['Content-Language'];
          'WWW-Authenticate': components['headers']['WWW-Authenticate'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorBody'];
        };
      };
      /** @description Forbidden: `TENANT_MISMATCH` The token was issued for another tenant than X-Tenant-ID; `FORBIDDEN` The user's roles do not give the permission the route needs; `TENANT_SUSPENDED` The tenant is suspended. */
      403: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'Content-Language': components['headers']['Content-Language'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorBody'];
        };
      };
      /** @description Not found: `NOT_FOUND` The feature is switched off for this tenant: the answer of a route that does not exist; `TENANT_NOT_FOUND` No tenant has this slug. */
      404: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'Content-Language': components['headers']['Content-Language'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorBody'];
        };
      };
      /** @description Too many requests: `RATE_LIMITED` Past RATE_LIMIT_MAX requests in the window (Retry-After). */
      429: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'Content-Language': components['headers']['Content-Language'];
          'Retry-After': components['headers']['Retry-After'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorBody'];
        };
      };
      /** @description Service unavailable: `57014` A statement ran longer than DB_STATEMENT_TIMEOUT_MS and was cancelled (Retry-After); `TENANT_PROVISIONING` The tenant is still being created (Retry-After); `TENANT_SCHEMA_OUTDATED` The tenant’s database is behind this version of the service: the operator migrates it (Retry-After); `DATABASE_UNAVAILABLE` The tenant database (or the catalog) does not answer (Retry-After); `REQUEST_TIMEOUT` Not answered within REQUEST_TIMEOUT_MS (Retry-After). */
      503: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'Content-Language': components['headers']['Content-Language'];
          'Retry-After': components['headers']['Retry-After'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorBody'];
        };
      };
    };
  };
  CajasController_session_v1: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        /** @description A positive integer id */
        id: number;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description The session and its figures */
      200: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ReporteCajaDto'];
        };
      };
      /** @description Bad request: `TENANT_REQUIRED` No X-Tenant-ID header; `TENANT_INVALID` X-Tenant-ID is not a tenant slug; `INVALID_ID` A path id is not a positive integer of its range. */
      400: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'Content-Language': components['headers']['Content-Language'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorBody'];
        };
      };
      /** @description Not authenticated: `UNAUTHENTICATED` No token, or a malformed, expired or badly signed one, or not an active user of the tenant (WWW-Authenticate). */
      401: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'Content-Language': components['headers']['Content-Language'];
          'WWW-Authenticate': components['headers']['WWW-Authenticate'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorBody'];
        };
      };
      /** @description Forbidden: `TENANT_MISMATCH` The token was issued for another tenant than X-Tenant-ID; `FORBIDDEN` The user's roles do not give the permission the route needs; `TENANT_SUSPENDED` The tenant is suspended. */
      403: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'Content-Language': components['headers']['Content-Language'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorBody'];
        };
      };
      /** @description Not found: `SESION_NOT_FOUND` No till session has this id; `NOT_FOUND` The feature is switched off for this tenant: the answer of a route that does not exist; `TENANT_NOT_FOUND` No tenant has this slug. */
      404: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'Content-Language': components['headers']['Content-Language'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorBody'];
        };
      };
      /** @description Too many requests: `RATE_LIMITED` Past RATE_LIMIT_MAX requests in the window (Retry-After). */
      429: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'Content-Language': components['headers']['Content-Language'];
          'Retry-After': components['headers']['Retry-After'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorBody'];
        };
      };
      /** @description Service unavailable: `57014` A statement ran longer than DB_STATEMENT_TIMEOUT_MS and was cancelled (Retry-After); `TENANT_PROVISIONING` The tenant is still being created (Retry-After); `TENANT_SCHEMA_OUTDATED` The tenant’s database is behind this version of the service: the operator migrates it (Retry-After); `DATABASE_UNAVAILABLE` The tenant database (or the catalog) does not answer (Retry-After); `REQUEST_TIMEOUT` Not answered within REQUEST_TIMEOUT_MS (Retry-After). */
      503: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'Content-Language': components['headers']['Content-Language'];
          'Retry-After': components['headers']['Retry-After'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorBody'];
        };
      };
    };
  };
  CajasController_report_v1: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        /** @description A positive integer id */
        id: number;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description The report */
      200: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ReporteCajaDto'];
          'text/plain': string;
        };
      };
      /** @description Bad request: `TENANT_REQUIRED` No X-Tenant-ID header; `TENANT_INVALID` X-Tenant-ID is not a tenant slug; `INVALID_ID` A path id is not a positive integer of its range. */
      400: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'Content-Language': components['headers']['Content-Language'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorBody'];
        };
      };
      /** @description Not authenticated: `UNAUTHENTICATED` No token, or a malformed, expired or badly signed one, or not an active user of the tenant (WWW-Authenticate). */
      401: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'Content-Language': components['headers']['Content-Language'];
          'WWW-Authenticate': components['headers']['WWW-Authenticate'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorBody'];
        };
      };
      /** @description Forbidden: `TENANT_MISMATCH` The token was issued for another tenant than X-Tenant-ID; `FORBIDDEN` The user's roles do not give the permission the route needs; `TENANT_SUSPENDED` The tenant is suspended. */
      403: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'Content-Language': components['headers']['Content-Language'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorBody'];
        };
      };
      /** @description Not found: `SESION_NOT_FOUND` No till session has this id; `NOT_FOUND` The feature is switched off for this tenant: the answer of a route that does not exist; `TENANT_NOT_FOUND` No tenant has this slug. */
      404: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'Content-Language': components['headers']['Content-Language'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorBody'];
        };
      };
      /** @description Too many requests: `RATE_LIMITED` Past RATE_LIMIT_MAX requests in the window (Retry-After). */
      429: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'Content-Language': components['headers']['Content-Language'];
          'Retry-After': components['headers']['Retry-After'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorBody'];
        };
      };
      /** @description Service unavailable: `57014` A statement ran longer than DB_STATEMENT_TIMEOUT_MS and was cancelled (Retry-After); `TENANT_PROVISIONING` The tenant is still being created (Retry-After); `TENANT_SCHEMA_OUTDATED` The tenant’s database is behind this version of the service: the operator migrates it (Retry-After); `DATABASE_UNAVAILABLE` The tenant database (or the catalog) does not answer (Retry-After); `REQUEST_TIMEOUT` Not answered within REQUEST_TIMEOUT_MS (Retry-After). */
      503: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'Content-Language': components['headers']['Content-Language'];
          'Retry-After': components['headers']['Retry-After'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorBody'];
        };
      };
    };
  };
  CajasController_movement_v1: {
    parameters: {
      query?: never;
      header?: {
        /** @description Makes a retry safe: the same key with the same request within IDEMPOTENCY_TTL_HOURS answers what the first answered (with Idempotent-Replayed: true) and does nothing again. 1 to 255 visible ASCII characters, one per intended change (a UUID). */
        'Idempotency-Key'?: string;
      };
      path: {
        /** @description A positive integer id */
        id: number;
      };
      cookie?: never;
    };
    requestBody: {
      content: {
        'application/json': components['schemas']['MovimientoBody'];
      };
    };
    responses: {
      /** @description The movement */
      201: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['MovimientoDto'];
        };
      };
      /** @description Bad request: `IDEMPOTENCY_KEY_INVALID` Idempotency-Key is empty, longer than 255 characters, not visible ASCII, or sent twice; `VALIDATION_FAILED` A field or parameter is missing, unknown or of the wrong type or range: one message per field; `TENANT_REQUIRED` No X-Tenant-ID header; `TENANT_INVALID` X-Tenant-ID is not a tenant slug; `INVALID_BODY` The JSON body is not an object (a string, a number, null, an array); `BAD_REQUEST` The body is not valid JSON; `INVALID_ID` A path id is not a positive integer of its range. */
      400: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'Content-Language': components['headers']['Content-Language'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorBody'];
        };
      };
      /** @description Not authenticated: `UNAUTHENTICATED` No token, or a malformed, expired or badly signed one, or not an active user of the tenant (WWW-Authenticate). */
      401: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'Content-Language': components['headers']['Content-Language'];
          'WWW-Authenticate': components['headers']['WWW-Authenticate'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorBody'];
        };
      };
      /** @description Forbidden: `TENANT_MISMATCH` The token was issued for another tenant than X-Tenant-ID; `FORBIDDEN` The user's roles do not give the permission the route needs; `TENANT_SUSPENDED` The tenant is suspended. */
      403: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'Content-Language': components['headers']['Content-Language'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorBody'];
        };
      };
      /** @description Not found: `SESION_NOT_FOUND` No till session has this id; `NOT_FOUND` The feature is switched off for this tenant: the answer of a route that does not exist; `TENANT_NOT_FOUND` No tenant has this slug. */
      404: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'Content-Language': components['headers']['Content-Language'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorBody'];
        };
      };
      /** @description Conflict: `IDEMPOTENCY_KEY_IN_USE` A request with this Idempotency-Key is still running: retry after Retry-After seconds; `SESION_CERRADA` The session is closed: it never changes. */
      409: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'Content-Language': components['headers']['Content-Language'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorBody'];
        };
      };
      /** @description Payload too large: `PAYLOAD_TOO_LARGE` The body is larger than BODY_LIMIT (a file: UPLOAD_MAX_BYTES). */
      413: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'Content-Language': components['headers']['Content-Language'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorBody'];
        };
      };
      /** @description Unsupported media type: `UNSUPPORTED_MEDIA_TYPE` The body came with another Content-Type than the route reads. */
      415: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'Content-Language': components['headers']['Content-Language'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorBody'];
        };
      };
      /** @description Unprocessable content: `IDEMPOTENCY_KEY_REUSED` This Idempotency-Key was used for another request (method, route, ids or body). */
      422: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'Content-Language': components['headers']['Content-Language'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorBody'];
        };
      };
      /** @description Too many requests: `RATE_LIMITED` Past RATE_LIMIT_MAX requests in the window (Retry-After). */
      429: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'Content-Language': components['headers']['Content-Language'];
          'Retry-After': components['headers']['Retry-After'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorBody'];
        };
      };
      /** @description Service unavailable: `57014` A statement ran longer than DB_STATEMENT_TIMEOUT_MS and was cancelled (Retry-After); `TENANT_PROVISIONING` The tenant is still being created (Retry-After); `TENANT_SCHEMA_OUTDATED` The tenant’s database is behind this version of the service: the operator migrates it (Retry-After); `DATABASE_UNAVAILABLE` The tenant database (or the catalog) does not answer (Retry-After); `REQUEST_TIMEOUT` Not answered within REQUEST_TIMEOUT_MS (Retry-After). */
      503: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'Content-Language': components['headers']['Content-Language'];
          'Retry-After': components['headers']['Retry-After'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorBody'];
        };
      };
    };
  };
  CajasController_close_v1: {
    parameters: {
      query?: never;
      header?: {
        /** @description Makes a retry safe: the same key with the same request within IDEMPOTENCY_TTL_HOURS answers what the first answered (with Idempotent-Replayed: true) and does nothing again. 1 to 255 visible ASCII characters, one per intended change (a UUID). */
        'Idempotency-Key'?: string;
      };
      path: {
        /** @description A positive integer id */
        id: number;
      };
      cookie?: never;
    };
    requestBody: {
      content: {
        'application/json': components['schemas']['CerrarSesionBody'];
      };
    };
    responses: {
      /** @description The Z */
      201: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ReporteCajaDto'];
        };
      };
      /** @description Bad request: `IDEMPOTENCY_KEY_INVALID` Idempotency-Key is empty, longer than 255 characters, not visible ASCII, or sent twice; `VALIDATION_FAILED` A field or parameter is missing, unknown or of the wrong type or range: one message per field; `INVALID_COUNT` The count names an unknown method, lacks the cash, or disagrees with conteo; `TENANT_REQUIRED` No X-Tenant-ID header; `TENANT_INVALID` X-Tenant-ID is not a tenant slug; `INVALID_BODY` The JSON body is not an object (a string, a number, null, an array); `BAD_REQUEST` The body is not valid JSON; `INVALID_ID` A path id is not a positive integer of its range. */
      400: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'Content-Language': components['headers']['Content-Language'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorBody'];
        };
      };
      /** @description Not authenticated: `UNAUTHENTICATED` No token, or a malformed, expired or badly signed one, or not an active user of the tenant (WWW-Authenticate). */
      401: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'Content-Language': components['headers']['Content-Language'];
          'WWW-Authenticate': components['headers']['WWW-Authenticate'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorBody'];
        };
      };
      /** @description Forbidden: `DIFERENCIA_SOBRE_TOLERANCIA` A difference above the tolerance needs caja:approve-difference; `TENANT_MISMATCH` The token was issued for another tenant than X-Tenant-ID; `FORBIDDEN` The user's roles do not give the permission the route needs; `TENANT_SUSPENDED` The tenant is suspended. */
      403: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'Content-Language': components['headers']['Content-Language'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorBody'];
        };
      };
      /** @description Not found: `SESION_NOT_FOUND` No till session has this id; `NOT_FOUND` The feature is switched off for this tenant: the answer of a route that does not exist; `TENANT_NOT_FOUND` No tenant has this slug. */
      404: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'Content-Language': components['headers']['Content-Language'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorBody'];
        };
      };
      /** @description Conflict: `IDEMPOTENCY_KEY_IN_USE` A request with this Idempotency-Key is still running: retry after Retry-After seconds; `SESION_CERRADA` The session is closed: it never changes; `SESION_CON_COMANDAS_ABIERTAS` A comanda paid in the session is still abierta. */
      409: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'Content-Language': components['headers']['Content-Language'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorBody'];
        };
      };
      /** @description Payload too large: `PAYLOAD_TOO_LARGE` The body is larger than BODY_LIMIT (a file: UPLOAD_MAX_BYTES). */
      413: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'Content-Language': components['headers']['Content-Language'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorBody'];
        };
      };
      /** @description Unsupported media type: `UNSUPPORTED_MEDIA_TYPE` The body came with another Content-Type than the route reads. */
      415: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'Content-Language': components['headers']['Content-Language'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorBody'];
        };
      };
      /** @description Unprocessable content: `IDEMPOTENCY_KEY_REUSED` This Idempotency-Key was used for another request (method, route, ids or body). */
      422: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'Content-Language': components['headers']['Content-Language'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorBody'];
        };
      };
      /** @description Too many requests: `RATE_LIMITED` Past RATE_LIMIT_MAX requests in the window (Retry-After). */
      429: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'Content-Language': components['headers']['Content-Language'];
          'Retry-After': components['headers']['Retry-After'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorBody'];
        };
      };
      /** @description Service unavailable: `57014` A statement ran longer than DB_STATEMENT_TIMEOUT_MS and was cancelled (Retry-After); `TENANT_PROVISIONING` The tenant is still being created (Retry-After); `TENANT_SCHEMA_OUTDATED` The tenant’s database is behind this version of the service: the operator migrates it (Retry-After); `DATABASE_UNAVAILABLE` The tenant database (or the catalog) does not answer (Retry-After); `REQUEST_TIMEOUT` Not answered within REQUEST_TIMEOUT_MS (Retry-After). */
      503: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'Content-Language': components['headers']['Content-Language'];
          'Retry-After': components['headers']['Retry-After'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorBody'];
        };
      };
    };
  };
  CajasController_settings_v1: {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description The settings */
      200: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['AjustesDto'];
        };
      };
      /** @description Bad request: `TENANT_REQUIRED` No X-Tenant-ID header; `TENANT_INVALID` X-Tenant-ID is not a tenant slug. */
      400: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'Content-Language': components['headers']['Content-Language'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorBody'];
        };
      };
      /** @description Not authenticated: `UNAUTHENTICATED` No token, or a malformed, expired or badly signed one, or not an active user of the tenant (WWW-Authenticate). */
      401: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'Content-Language': components['headers']['Content-Language'];
          'WWW-Authenticate': components['headers']['WWW-Authenticate'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorBody'];
        };
      };
      /** @description Forbidden: `TENANT_MISMATCH` The token was issued for another tenant than X-Tenant-ID; `FORBIDDEN` The user's roles do not give the permission the route needs; `TENANT_SUSPENDED` The tenant is suspended. */
      403: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'Content-Language': components['headers']['Content-Language'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorBody'];
        };
      };
      /** @description Not found: `NOT_FOUND` The feature is switched off for this tenant: the answer of a route that does not exist; `TENANT_NOT_FOUND` No tenant has this slug. */
      404: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'Content-Language': components['headers']['Content-Language'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorBody'];
        };
      };
      /** @description Too many requests: `RATE_LIMITED` Past RATE_LIMIT_MAX requests in the window (Retry-After). */
      429: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'Content-Language': components['headers']['Content-Language'];
          'Retry-After': components['headers']['Retry-After'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorBody'];
        };
      };
      /** @description Service unavailable: `57014` A statement ran longer than DB_STATEMENT_TIMEOUT_MS and was cancelled (Retry-After); `TENANT_PROVISIONING` The tenant is still being created (Retry-After); `TENANT_SCHEMA_OUTDATED` The tenant’s database is behind this version of the service: the operator migrates it (Retry-After); `DATABASE_UNAVAILABLE` The tenant database (or the catalog) does not answer (Retry-After); `REQUEST_TIMEOUT` Not answered within REQUEST_TIMEOUT_MS (Retry-After). */
      503: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'Content-Language': components['headers']['Content-Language'];
          'Retry-After': components['headers']['Retry-After'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorBody'];
        };
      };
    };
  };
  CajasController_saveSettings_v1: {
    parameters: {
      query?: never;
      header?: {
        /** @description Makes a retry safe: the same key with the same request within IDEMPOTENCY_TTL_HOURS answers what the first answered (with Idempotent-Replayed: true) and does nothing again. 1 to 255 visible ASCII characters, one per intended change (a UUID). */
        'Idempotency-Key'?: string;
      };
      path?: never;
      cookie?: never;
    };
    requestBody: {
      content: {
        'application/json': components['schemas']['AjustesBody'];
      };
    };
    responses: {
      /** @description The settings as changed */
      200: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['AjustesDto'];
        };
      };
      /** @description Bad request: `IDEMPOTENCY_KEY_INVALID` Idempotency-Key is empty, longer than 255 characters, not visible ASCII, or sent twice; `VALIDATION_FAILED` A field or parameter is missing, unknown or of the wrong type or range: one message per field; `TENANT_REQUIRED` No X-Tenant-ID header; `TENANT_INVALID` X-Tenant-ID is not a tenant slug; `INVALID_BODY` The JSON body is not an object (a string, a number, null, an array); `BAD_REQUEST` The body is not valid JSON. */
      400: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'Content-Language': components['headers']['Content-Language'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorBody'];
        };
      };
      /** @description Not authenticated: `UNAUTHENTICATED` No token, or a malformed, expired or badly signed one, or not an active user of the tenant (WWW-Authenticate). */
      401: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'Content-Language': components['headers']['Content-Language'];
          'WWW-Authenticate': components['headers']['WWW-Authenticate'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorBody'];
        };
      };
      /** @description Forbidden: `TENANT_MISMATCH` The token was issued for another tenant than X-Tenant-ID; `FORBIDDEN` The user's roles do not give the permission the route needs; `TENANT_SUSPENDED` The tenant is suspended. */
      403: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'Content-Language': components['headers']['Content-Language'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorBody'];
        };
      };
      /** @description Not found: `NOT_FOUND` The feature is switched off for this tenant: the answer of a route that does not exist; `TENANT_NOT_FOUND` No tenant has this slug. */
      404: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'Content-Language': components['headers']['Content-Language'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorBody'];
        };
      };
      /** @description Conflict: `IDEMPOTENCY_KEY_IN_USE` A request with this Idempotency-Key is still running: retry after Retry-After seconds. */
      409: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'Content-Language': components['headers']['Content-Language'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorBody'];
        };
      };
      /** @description Payload too large: `PAYLOAD_TOO_LARGE` The body is larger than BODY_LIMIT (a file: UPLOAD_MAX_BYTES). */
      413: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'Content-Language': components['headers']['Content-Language'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorBody'];
        };
      };
      /** @description Unsupported media type: `UNSUPPORTED_MEDIA_TYPE` The body came with another Content-Type than the route reads. */
      415: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'Content-Language': components['headers']['Content-Language'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorBody'];
        };
      };
      /** @description Unprocessable content: `IDEMPOTENCY_KEY_REUSED` This Idempotency-Key was used for another request (method, route, ids or body). */
      422: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'Content-Language': components['headers']['Content-Language'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorBody'];
        };
      };
      /** @description Too many requests: `RATE_LIMITED` Past RATE_LIMIT_MAX requests in the window (Retry-After). */
      429: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'Content-Language': components['headers']['Content-Language'];
          'Retry-After': components['headers']['Retry-After'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorBody'];
        };
      };
      /** @description Service unavailable: `57014` A statement ran longer than DB_STATEMENT_TIMEOUT_MS and was cancelled (Retry-After); `TENANT_PROVISIONING` The tenant is still being created (Retry-After); `TENANT_SCHEMA_OUTDATED` The tenant’s database is behind this version of the service: the operator migrates it (Retry-After); `DATABASE_UNAVAILABLE` The tenant database (or the catalog) does not answer (Retry-After); `REQUEST_TIMEOUT` Not answered within REQUEST_TIMEOUT_MS (Retry-After). */
      503: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'Content-Language': components['headers']['Content-Language'];
          'Retry-After': components['headers']['Retry-After'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorBody'];
        };
      };
    };
  };
  InventarioController_saldos_v1: {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description By material name */
      200: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['SaldoDto'][];
        };
      };
      /** @description Bad request: `TENANT_REQUIRED` No X-Tenant-ID header; `TENANT_INVALID` X-Tenant-ID is not a tenant slug. */
      400: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'Content-Language': components['headers']['Content-Language'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorBody'];
        };
      };
      /** @description Not authenticated: `UNAUTHENTICATED` No token, or a malformed, expired or badly signed one, or not an active user of the tenant (WWW-Authenticate). */
      401: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'Content-Language': components['headers']['Content-Language'];
          'WWW-Authenticate': components['headers']['WWW-Authenticate'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorBody'];
        };
      };
      /** @description Forbidden: `TENANT_MISMATCH` The token was issued for another tenant than X-Tenant-ID; `FORBIDDEN` The user's roles do not give the permission the route needs; `TENANT_SUSPENDED` The tenant is suspended. */
      403: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'Content-Language': components['headers']['Content-Language'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorBody'];
        };
      };
      /** @description Not found: `NOT_FOUND` The feature is switched off for this tenant: the answer of a route that does not exist; `TENANT_NOT_FOUND` No tenant has this slug. */
      404: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'Content-Language': components['headers']['Content-Language'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorBody'];
        };
      };
      /** @description Too many requests: `RATE_LIMITED` Past RATE_LIMIT_MAX requests in the window (Retry-After). */
      429: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'Content-Language': components['headers']['Content-Language'];
          'Retry-After': components['headers']['Retry-After'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorBody'];
        };
      };
      /** @description Service unavailable: `57014` A statement ran longer than DB_STATEMENT_TIMEOUT_MS and was cancelled (Retry-After); `TENANT_PROVISIONING` The tenant is still being created (Retry-After); `TENANT_SCHEMA_OUTDATED` The tenant’s database is behind this version of the service: the operator migrates it (Retry-After); `DATABASE_UNAVAILABLE` The tenant database (or the catalog) does not answer (Retry-After); `REQUEST_TIMEOUT` Not answered within REQUEST_TIMEOUT_MS (Retry-After). */
      503: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'Content-Language': components['headers']['Content-Language'];
          'Retry-After': components['headers']['Retry-After'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorBody'];
        };
      };
    };
  };
  InventarioController_materiales_v1: {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description By name */
      200: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['MaterialDto'][];
        };
      };
      /** @description Bad request: `TENANT_REQUIRED` No X-Tenant-ID header; `TENANT_INVALID` X-Tenant-ID is not a tenant slug. */
      400: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'Content-Language': components['headers']['Content-Language'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorBody'];
        };
      };
      /** @description Not authenticated: `UNAUTHENTICATED` No token, or a malformed, expired or badly signed one, or not an active user of the tenant (WWW-Authenticate). */
      401: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'Content-Language': components['headers']['Content-Language'];
          'WWW-Authenticate': components['headers']['WWW-Authenticate'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorBody'];
        };
      };
      /** @description Forbidden: `TENANT_MISMATCH` The token was issued for another tenant than X-Tenant-ID; `FORBIDDEN` The user's roles do not give the permission the route needs; `TENANT_SUSPENDED` The tenant is suspended. */
      403: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'Content-Language': components['headers']['Content-Language'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorBody'];
        };
      };
      /** @description Not found: `NOT_FOUND` The feature is switched off for this tenant: the answer of a route that does not exist; `TENANT_NOT_FOUND` No tenant has this slug. */
      404: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'Content-Language': components['headers']['Content-Language'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorBody'];
        };
      };
      /** @description Too many requests: `RATE_LIMITED` Past RATE_LIMIT_MAX requests in the window (Retry-After). */
      429: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'Content-Language': components['headers']['Content-Language'];
          'Retry-After': components['headers']['Retry-After'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorBody'];
        };
      };
      /** @description Service unavailable: `57014` A statement ran longer than DB_STATEMENT_TIMEOUT_MS and was cancelled (Retry-After); `TENANT_PROVISIONING` The tenant is still being created (Retry-After); `TENANT_SCHEMA_OUTDATED` The tenant’s database is behind this version of the service: the operator migrates it (Retry-After); `DATABASE_UNAVAILABLE` The tenant database (or the catalog) does not answer (Retry-After); `REQUEST_TIMEOUT` Not answered within REQUEST_TIMEOUT_MS (Retry-After). */
      503: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'Content-Language': components['headers']['Content-Language'];
          'Retry-After': components['headers']['Retry-After'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorBody'];
        };
      };
    };
  };
  InventarioController_movimientos_v1: {
    parameters: {
      query?: {
        /** @description Only movements of this material */
        id_mat_prima?: number;
        tipo?:
          | 'inicial'
          | 'compra'
          | 'reverso_compra'
          | 'consumo_venta'
          | 'reverso_consumo'
          | 'merma'
          | 'ajuste_conteo';
        /** @description From: a date YYYY-MM-DD (the tenant’s day) or an instant; the period is after desde, up to and including hasta */
        desde?: string;
        /** @description To: a date YYYY-MM-DD (the tenant’s day) or an instant; the period is after desde, up to and including hasta */
        hasta?: string;
        /** @description Page size (above the maximum is 400, not cut) */
        limit?: number;
        /** @description Movements skipped before the page */
        offset?: number;
      };
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description A page of movements */
      200: {
        headers: {
          /** @description Movements matching the filters, whatever the page */
          'X-Total-Count'?: number;
          'X-Request-Id': components['headers']['X-Request-Id'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['MovimientoStockDto'][];
        };
      };
      /** @description Bad request: `VALIDATION_FAILED` A field or parameter is missing, unknown or of the wrong type or range: one message per field; `TENANT_REQUIRED` No X-Tenant-ID header; `TENANT_INVALID` X-Tenant-ID is not a tenant slug. */
      400: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'Content-Language': components['headers']['Content-Language'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorBody'];
        };
      };
      /** @description Not authenticated: `UNAUTHENTICATED` No token, or a malformed, expired or badly signed one, or not an active user of the tenant (WWW-Authenticate). */
      401: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'Content-Language': components['headers']['Content-Language'];
          'WWW-Authenticate': components['headers']['WWW-Authenticate'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorBody'];
        };
      };
      /** @description Forbidden: `TENANT_MISMATCH` The token was issued for another tenant than X-Tenant-ID; `FORBIDDEN` The user's roles do not give the permission the route needs; `TENANT_SUSPENDED` The tenant is suspended. */
      403: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'Content-Language': components['headers']['Content-Language'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorBody'];
        };
      };
      /** @description Not found: `NOT_FOUND` The feature is switched off for this tenant: the answer of a route that does not exist; `TENANT_NOT_FOUND` No tenant has this slug. */
      404: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'Content-Language': components['headers']['Content-Language'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorBody'];
        };
      };
      /** @description Too many requests: `RATE_LIMITED` Past RATE_LIMIT_MAX requests in the window (Retry-After). */
      429: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'Content-Language': components['headers']['Content-Language'];
          'Retry-After': components['headers']['Retry-After'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorBody'];
        };
      };
      /** @description Service unavailable: `57014` A statement ran longer than DB_STATEMENT_TIMEOUT_MS and was cancelled (Retry-After); `TENANT_PROVISIONING` The tenant is still being created (Retry-After); `TENANT_SCHEMA_OUTDATED` The tenant’s database is behind this version of the service: the operator migrates it (Retry-After); `DATABASE_UNAVAILABLE` The tenant database (or the catalog) does not answer (Retry-After); `REQUEST_TIMEOUT` Not answered within REQUEST_TIMEOUT_MS (Retry-After). */
      503: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'Content-Language': components['headers']['Content-Language'];
          'Retry-After': components['headers']['Retry-After'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorBody'];
        };
      };
    };
  };
  InventarioController_merma_v1: {
    parameters: {
      query?: never;
      header?: {
        /** @description Makes a retry safe: the same key with the same request within IDEMPOTENCY_TTL_HOURS answers what the first answered (with Idempotent-Replayed: true) and does nothing again. 1 to 255 visible ASCII characters, one per intended change (a UUID). */
        'Idempotency-Key'?: string;
      };
      path?: never;
      cookie?: never;
    };
    requestBody: {
      content: {
        'application/json': components['schemas']['MermaBody'];
      };
    };
    responses: {
      /** @description The movement */
      201: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['MovimientoStockDto'];
        };
      };
      /** @description Bad request: `IDEMPOTENCY_KEY_INVALID` Idempotency-Key is empty, longer than 255 characters, not visible ASCII, or sent twice; `VALIDATION_FAILED` A field or parameter is missing, unknown or of the wrong type or range: one message per field; `MATERIA_NOT_FOUND` No material has this id; `TENANT_REQUIRED` No X-Tenant-ID header; `TENANT_INVALID` X-Tenant-ID is not a tenant slug; `INVALID_BODY` The JSON body is not an object (a string, a number, null, an array); `BAD_REQUEST` The body is not valid JSON. */
      400: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'Content-Language': components['headers']['Content-Language'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorBody'];
        };
      };
      /** @description Not authenticated: `UNAUTHENTICATED` No token, or a malformed, expired or badly signed one, or not an active user of the tenant (WWW-Authenticate). */
      401: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'Content-Language': components['headers']['Content-Language'];
          'WWW-Authenticate': components['headers']['WWW-Authenticate'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorBody'];
        };
      };
      /** @description Forbidden: `TENANT_MISMATCH` The token was issued for another tenant than X-Tenant-ID; `FORBIDDEN` The user's roles do not give the permission the route needs; `TENANT_SUSPENDED` The tenant is suspended. */
      403: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'Content-Language': components['headers']['Content-Language'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorBody'];
        };
      };
      /** @description Not found: `NOT_FOUND` The feature is switched off for this tenant: the answer of a route that does not exist; `TENANT_NOT_FOUND` No tenant has this slug. */
      404: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'Content-Language': components['headers']['Content-Language'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorBody'];
        };
      };
      /** @description Conflict: `IDEMPOTENCY_KEY_IN_USE` A request with this Idempotency-Key is still running: retry after Retry-After seconds; `PERIODO_CERRADO` Dated at or before the last applied count’s cut-off. */
      409: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'Content-Language': components['headers']['Content-Language'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorBody'];
        };
      };
      /** @description Payload too large: `PAYLOAD_TOO_LARGE` The body is larger than BODY_LIMIT (a file: UPLOAD_MAX_BYTES). */
      413: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'Content-Language': components['headers']['Content-Language'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorBody'];
        };
      };
      /** @description Unsupported media type: `UNSUPPORTED_MEDIA_TYPE` The body came with another Content-Type than the route reads. */
      415: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'Content-Language': components['headers']['Content-Language'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorBody'];
        };
      };
      /** @description Unprocessable content: `IDEMPOTENCY_KEY_REUSED` This Idempotency-Key was used for another request (method, route, ids or body). */
      422: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'Content-Language': components['headers']['Content-Language'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorBody'];
        };
      };
      /** @description Too many requests: `RATE_LIMITED` Past RATE_LIMIT_MAX requests in the window (Retry-After). */
      429: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'Content-Language': components['headers']['Content-Language'];
          'Retry-After': components['headers']['Retry-After'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorBody'];
        };
      };
      /** @description Service unavailable: `57014` A statement ran longer than DB_STATEMENT_TIMEOUT_MS and was cancelled (Retry-After); `TENANT_PROVISIONING` The tenant is still being created (Retry-After); `TENANT_SCHEMA_OUTDATED` The tenant’s database is behind this version of the service: the operator migrates it (Retry-After); `DATABASE_UNAVAILABLE` The tenant database (or the catalog) does not answer (Retry-After); `REQUEST_TIMEOUT` Not answered within REQUEST_TIMEOUT_MS (Retry-After). */
      503: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'Content-Language': components['headers']['Content-Language'];
          'Retry-After': components['headers']['Retry-After'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorBody'];
        };
      };
    };
  };
  InventarioController_conteos_v1: {
    parameters: {
      query?: {
        estado?: 'borrador' | 'aplicado' | 'descartado';
        /** @description Page size (above the maximum is 400, not cut) */
        limit?: number;
        /** @description Counts skipped before the page */
        offset?: number;
      };
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description A page of counts */
      200: {
        headers: {
          /** @description Counts matching the filters, whatever the page */
          'X-Total-Count'?: number;
          'X-Request-Id': components['headers']['X-Request-Id'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ConteoResumenDto'][];
        };
      };
      /** @description Bad request: `VALIDATION_FAILED` A field or parameter is missing, unknown or of the wrong type or range: one message per field; `TENANT_REQUIRED` No X-Tenant-ID header; `TENANT_INVALID` X-Tenant-ID is not a tenant slug. */
      400: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'Content-Language': components['headers']['Content-Language'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorBody'];
        };
      };
      /** @description Not authenticated: `UNAUTHENTICATED` No token, or a malformed, expired or badly signed one, or not an active user of the tenant (WWW-Authenticate). */
      401: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'Content-Language': components['headers']['Content-Language'];
          'WWW-Authenticate': components['headers']['WWW-Authenticate'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorBody'];
        };
      };
      /** @description Forbidden: `TENANT_MISMATCH` The token was issued for another tenant than X-Tenant-ID; `FORBIDDEN` The user's roles do not give the permission the route needs; `TENANT_SUSPENDED` The tenant is suspended. */
      403: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'Content-Language': components['headers']['Content-Language'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorBody'];
        };
      };
      /** @description Not found: `NOT_FOUND` The feature is switched off for this tenant: the answer of a route that does not exist; `TENANT_NOT_FOUND` No tenant has this slug. */
      404: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'Content-Language': components['headers']['Content-Language'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorBody'];
        };
      };
      /** @description Too many requests: `RATE_LIMITED` Past RATE_LIMIT_MAX requests in the window (Retry-After). */
      429: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'Content-Language': components['headers']['Content-Language'];
          'Retry-After': components['headers']['Retry-After'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorBody'];
        };
      };
      /** @description Service unavailable: `57014` A statement ran longer than DB_STATEMENT_TIMEOUT_MS and was cancelled (Retry-After); `TENANT_PROVISIONING` The tenant is still being created (Retry-After); `TENANT_SCHEMA_OUTDATED` The tenant’s database is behind this version of the service: the operator migrates it (Retry-After); `DATABASE_UNAVAILABLE` The tenant database (or the catalog) does not answer (Retry-After); `REQUEST_TIMEOUT` Not answered within REQUEST_TIMEOUT_MS (Retry-After). */
      503: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'Content-Language': components['headers']['Content-Language'];
          'Retry-After': components['headers']['Retry-After'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorBody'];
        };
      };
    };
  };
  InventarioController_createConteo_v1: {
    parameters: {
      query?: never;
      header?: {
        /** @description Makes a retry safe: the same key with the same request within IDEMPOTENCY_TTL_HOURS answers what the first answered (with Idempotent-Replayed: true) and does nothing again. 1 to 255 visible ASCII characters, one per intended change (a UUID). */
        'Idempotency-Key'?: string;
      };
      path?: never;
      cookie?: never;
    };
    requestBody: {
      content: {
        'application/json': components['schemas']['ConteoBody'];
      };
    };
    responses: {
      /** @description The draft */
      201: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ConteoDto'];
        };
      };
      /** @description Bad request: `IDEMPOTENCY_KEY_INVALID` Idempotency-Key is empty, longer than 255 characters, not visible ASCII, or sent twice; `VALIDATION_FAILED` A field or parameter is missing, unknown or of the wrong type or range: one message per field; `MATERIA_NOT_FOUND` No material has this id; `MATERIA_REPETIDA` A material is twice on the count sheet; `CORTE_FUTURO` The cut-off is in the future; `TENANT_REQUIRED` No X-Tenant-ID header; `TENANT_INVALID` X-Tenant-ID is not a tenant slug; `INVALID_BODY` The JSON body is not an object (a string, a number, null, an array); `BAD_REQUEST` The body is not valid JSON. */
      400: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'Content-Language': components['headers']['Content-Language'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorBody'];
        };
      };
      /** @description Not authenticated: `UNAUTHENTICATED` No token, or a malformed, expired or badly signed one, or not an active user of the tenant (WWW-Authenticate). */
      401: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'Content-Language': components['headers']['Content-Language'];
          'WWW-Authenticate': components['headers']['WWW-Authenticate'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorBody'];
        };
      };
      /** @description Forbidden: `TENANT_MISMATCH` The token was issued for another tenant than X-Tenant-ID; `FORBIDDEN` The user's roles do not give the permission the route needs; `TENANT_SUSPENDED` The tenant is suspended. */
      403: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'Content-Language': components['headers']['Content-Language'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorBody'];
        };
      };
      /** @description Not found: `NOT_FOUND` The feature is switched off for this tenant: the answer of a route that does not exist; `TENANT_NOT_FOUND` No tenant has this slug. */
      404: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'Content-Language': components['headers']['Content-Language'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorBody'];
        };
      };
      /** @description Conflict: `IDEMPOTENCY_KEY_IN_USE` A request with this Idempotency-Key is still running: retry after Retry-After seconds; `PERIODO_CERRADO` Dated at or before the last applied count’s cut-off. */
      409: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'Content-Language': components['headers']['Content-Language'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorBody'];
        };
      };
      /** @description Payload too large: `PAYLOAD_TOO_LARGE` The body is larger than BODY_LIMIT (a file: UPLOAD_MAX_BYTES). */
      413: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'Content-Language': components['headers']['Content-Language'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorBody'];
        };
      };
      /** @description Unsupported media type: `UNSUPPORTED_MEDIA_TYPE` The body came with another Content-Type than the route reads. */
      415: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'Content-Language': components['headers']['Content-Language'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorBody'];
        };
      };
      /** @description Unprocessable content: `IDEMPOTENCY_KEY_REUSED` This Idempotency-Key was used for another request (method, route, ids or body). */
      422: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'Content-Language': components['headers']['Content-Language'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorBody'];
        };
      };
      /** @description Too many requests: `RATE_LIMITED` Past RATE_LIMIT_MAX requests in the window (Retry-After). */
      429: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'Content-Language': components['headers']['Content-Language'];
          'Retry-After': components['headers']['Retry-After'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorBody'];
        };
      };
      /** @description Service unavailable: `57014` A statement ran longer than DB_STATEMENT_TIMEOUT_MS and was cancelled (Retry-After); `TENANT_PROVISIONING` The tenant is still being created (Retry-After); `TENANT_SCHEMA_OUTDATED` The tenant’s database is behind this version of the service: the operator migrates it (Retry-After); `DATABASE_UNAVAILABLE` The tenant database (or the catalog) does not answer (Retry-After); `REQUEST_TIMEOUT` Not answered within REQUEST_TIMEOUT_MS (Retry-After). */
      503: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'Content-Language': components['headers']['Content-Language'];
          'Retry-After': components['headers']['Retry-After'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorBody'];
        };
      };
    };
  };
  InventarioController_conteo_v1: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        /** @description A positive integer id */
        id: number;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description The count */
      200: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ConteoDto'];
        };
      };
      /** @description Bad request: `TENANT_REQUIRED` No X-Tenant-ID header; `TENANT_INVALID` X-Tenant-ID is not a tenant slug; `INVALID_ID` A path id is not a positive integer of its range. */
      400: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'Content-Language': components['headers']['Content-Language'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorBody'];
        };
      };
      /** @description Not authenticated: `UNAUTHENTICATED` No token, or a malformed, expired or badly signed one, or not an active user of the tenant (WWW-Authenticate). */
      401: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'Content-Language': components['headers']['Content-Language'];
          'WWW-Authenticate': components['headers']['WWW-Authenticate'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorBody'];
        };
      };
      /** @description Forbidden: `TENANT_MISMATCH` The token was issued for another tenant than X-Tenant-ID; `FORBIDDEN` The user's roles do not give the permission the route needs; `TENANT_SUSPENDED` The tenant is suspended. */
      403: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'Content-Language': components['headers']['Content-Language'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorBody'];
        };
      };
      /** @description Not found: `CONTEO_NOT_FOUND` No count has this id; `NOT_FOUND` The feature is switched off for this tenant: the answer of a route that does not exist; `TENANT_NOT_FOUND` No tenant has this slug. */
      404: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'Content-Language': components['headers']['Content-Language'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorBody'];
        };
      };
      /** @description Too many requests: `RATE_LIMITED` Past RATE_LIMIT_MAX requests in the window (Retry-After). */
      429: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'Content-Language': components['headers']['Content-Language'];
          'Retry-After': components['headers']['Retry-After'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorBody'];
        };
      };
      /** @description Service unavailable: `57014` A statement ran longer than DB_STATEMENT_TIMEOUT_MS and was cancelled (Retry-After); `TENANT_PROVISIONING` The tenant is still being created (Retry-After); `TENANT_SCHEMA_OUTDATED` The tenant’s database is behind this version of the service: the operator migrates it (Retry-After); `DATABASE_UNAVAILABLE` The tenant database (or the catalog) does not answer (Retry-After); `REQUEST_TIMEOUT` Not answered within REQUEST_TIMEOUT_MS (Retry-After). */
      503: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'Content-Language': components['headers']['Content-Language'];
          'Retry-After': components['headers']['Retry-After'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorBody'];
        };
      };
    };
  };
  InventarioController_updateConteo_v1: {
    parameters: {
      query?: never;
      header?: {
        /** @description Makes a retry safe: the same key with the same request within IDEMPOTENCY_TTL_HOURS answers what the first answered (with Idempotent-Replayed: true) and does nothing again. 1 to 255 visible ASCII characters, one per intended change (a UUID). */
        'Idempotency-Key'?: string;
      };
      path: {
        /** @description A positive integer id */
        id: number;
      };
      cookie?: never;
    };
    requestBody: {
      content: {
        'application/json': components['schemas']['ConteoPatchBody'];
      };
    };
    responses: {
      /** @description The draft */
      200: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ConteoDto'];
        };
      };
      /** @description Bad request: `IDEMPOTENCY_KEY_INVALID` Idempotency-Key is empty, longer than 255 characters, not visible ASCII, or sent twice; `VALIDATION_FAILED` A field or parameter is missing, unknown or of the wrong type or range: one message per field; `MATERIA_NOT_FOUND` No material has this id; `MATERIA_REPETIDA` A material is twice on the count sheet; `TENANT_REQUIRED` No X-Tenant-ID header; `TENANT_INVALID` X-Tenant-ID is not a tenant slug; `INVALID_BODY` The JSON body is not an object (a string, a number, null, an array); `BAD_REQUEST` The body is not valid JSON; `INVALID_ID` A path id is not a positive integer of its range. */
      400: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'Content-Language': components['headers']['Content-Language'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorBody'];
        };
      };
      /** @description Not authenticated: `UNAUTHENTICATED` No token, or a malformed, expired or badly signed one, or not an active user of the tenant (WWW-Authenticate). */
      401: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'Content-Language': components['headers']['Content-Language'];
          'WWW-Authenticate': components['headers']['WWW-Authenticate'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorBody'];
        };
      };
      /** @description Forbidden: `TENANT_MISMATCH` The token was issued for another tenant than X-Tenant-ID; `FORBIDDEN` The user's roles do not give the permission the route needs; `TENANT_SUSPENDED` The tenant is suspended. */
      403: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'Content-Language': components['headers']['Content-Language'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorBody'];
        };
      };
      /** @description Not found: `CONTEO_NOT_FOUND` No count has this id; `NOT_FOUND` The feature is switched off for this tenant: the answer of a route that does not exist; `TENANT_NOT_FOUND` No tenant has this slug. */
      404: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'Content-Language': components['headers']['Content-Language'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorBody'];
        };
      };
      /** @description Conflict: `IDEMPOTENCY_KEY_IN_USE` A request with this Idempotency-Key is still running: retry after Retry-After seconds; `CONTEO_NO_BORRADOR` The count was applied or discarded already. */
      409: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'Content-Language': components['headers']['Content-Language'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorBody'];
        };
      };
      /** @description Payload too large: `PAYLOAD_TOO_LARGE` The body is larger than BODY_LIMIT (a file: UPLOAD_MAX_BYTES). */
      413: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'Content-Language': components['headers']['Content-Language'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorBody'];
        };
      };
      /** @description Unsupported media type: `UNSUPPORTED_MEDIA_TYPE` The body came with another Content-Type than the route reads. */
      415: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'Content-Language': components['headers']['Content-Language'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorBody'];
        };
      };
      /** @description Unprocessable content: `IDEMPOTENCY_KEY_REUSED` This Idempotency-Key was used for another request (method, route, ids or body). */
      422: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'Content-Language': components['headers']['Content-Language'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorBody'];
        };
      };
      /** @description Too many requests: `RATE_LIMITED` Past RATE_LIMIT_MAX requests in the window (Retry-After). */
      429: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'Content-Language': components['headers']['Content-Language'];
          'Retry-After': components['headers']['Retry-After'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorBody'];
        };
      };
      /** @description Service unavailable: `57014` A statement ran longer than DB_STATEMENT_TIMEOUT_MS and was cancelled (Retry-After); `TENANT_PROVISIONING` The tenant is still being created (Retry-After); `TENANT_SCHEMA_OUTDATED` The tenant’s database is behind this version of the service: the operator migrates it (Retry-After); `DATABASE_UNAVAILABLE` The tenant database (or the catalog) does not answer (Retry-After); `REQUEST_TIMEOUT` Not answered within REQUEST_TIMEOUT_MS (Retry-After). */
      503: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'Content-Language': components['headers']['Content-Language'];
          'Retry-After': components['headers']['Retry-After'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorBody'];
        };
      };
    };
  };
  InventarioController_applyConteo_v1: {
    parameters: {
      query?: never;
      header?: {
        /** @description Makes a retry safe: the same key with the same request within IDEMPOTENCY_TTL_HOURS answers what the first answered (with Idempotent-Replayed: true) and does nothing again. 1 to 255 visible ASCII characters, one per intended change (a UUID). */
        'Idempotency-Key'?: string;
      };
      path: {
        /** @description A positive integer id */
        id: number;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description The applied count, its system quantities frozen */
      200: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ConteoDto'];
        };
      };
      /** @description Bad request: `IDEMPOTENCY_KEY_INVALID` Idempotency-Key is empty, longer than 255 characters, not visible ASCII, or sent twice; `TENANT_REQUIRED` No X-Tenant-ID header; `TENANT_INVALID` X-Tenant-ID is not a tenant slug; `INVALID_ID` A path id is not a positive integer of its range. */
      400: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'Content-Language': components['headers']['Content-Language'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorBody'];
        };
      };
      /** @description Not authenticated: `UNAUTHENTICATED` No token, or a malformed, expired or badly signed one, or not an active user of the tenant (WWW-Authenticate). */
      401: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'Content-Language': components['headers']['Content-Language'];
          'WWW-Authenticate': components['headers']['WWW-Authenticate'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorBody'];
        };
      };
      /** @description Forbidden: `TENANT_MISMATCH` The token was issued for another tenant than X-Tenant-ID; `FORBIDDEN` The user's roles do not give the permission the route needs; `TENANT_SUSPENDED` The tenant is suspended. */
      403: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'Content-Language': components['headers']['Content-Language'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorBody'];
        };
      };
      /** @description Not found: `CONTEO_NOT_FOUND` No count has this id; `NOT_FOUND` The feature is switched off for this tenant: the answer of a route that does not exist; `TENANT_NOT_FOUND` No tenant has this slug. */
      404: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'Content-Language': components['headers']['Content-Language'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorBody'];
        };
      };
      /** @description Conflict: `IDEMPOTENCY_KEY_IN_USE` A request with this Idempotency-Key is still running: retry after Retry-After seconds; `CONTEO_NO_BORRADOR` The count was applied or discarded already; `PERIODO_CERRADO` Dated at or before the last applied count’s cut-off. */
      409: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'Content-Language': components['headers']['Content-Language'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorBody'];
        };
      };
      /** @description Unprocessable content: `IDEMPOTENCY_KEY_REUSED` This Idempotency-Key was used for another request (method, route, ids or body). */
      422: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'Content-Language': components['headers']['Content-Language'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorBody'];
        };
      };
      /** @description Too many requests: `RATE_LIMITED` Past RATE_LIMIT_MAX requests in the window (Retry-After). */
      429: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'Content-Language': components['headers']['Content-Language'];
          'Retry-After': components['headers']['Retry-After'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorBody'];
        };
      };
      /** @description Service unavailable: `57014` A statement ran longer than DB_STATEMENT_TIMEOUT_MS and was cancelled (Retry-After); `TENANT_PROVISIONING` The tenant is still being created (Retry-After); `TENANT_SCHEMA_OUTDATED` The tenant’s database is behind this version of the service: the operator migrates it (Retry-After); `DATABASE_UNAVAILABLE` The tenant database (or the catalog) does not answer (Retry-After); `REQUEST_TIMEOUT` Not answered within REQUEST_TIMEOUT_MS (Retry-After). */
      503: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'Content-Language': components['headers']['Content-Language'];
          'Retry-After': components['headers']['Retry-After'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorBody'];
        };
      };
    };
  };
  InventarioController_discardConteo_v1: {
    parameters: {
      query?: never;
      header?: {
        /** @description Makes a retry safe: the same key with the same request within IDEMPOTENCY_TTL_HOURS answers what the first answered (with Idempotent-Replayed: true) and does nothing again. 1 to 255 visible ASCII characters, one per intended change (a UUID). */
        'Idempotency-Key'?: string;
      };
      path: {
        /** @description A positive integer id */
        id: number;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description The discarded count */
      200: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ConteoDto'];
        };
      };
      /** @description Bad request: `IDEMPOTENCY_KEY_INVALID` Idempotency-Key is empty, longer than 255 characters, not visible ASCII, or sent twice; `TENANT_REQUIRED` No X-Tenant-ID header; `TENANT_INVALID` X-Tenant-ID is not a tenant slug; `INVALID_ID` A path id is not a positive integer of its range. */
      400: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'Content-Language': components['headers']['Content-Language'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorBody'];
        };
      };
      /** @description Not authenticated: `UNAUTHENTICATED` No token, or a malformed, expired or badly signed one, or not an active user of the tenant (WWW-Authenticate). */
      401: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'Content-Language': components['headers']['Content-Language'];
          'WWW-Authenticate': components['headers']['WWW-Authenticate'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorBody'];
        };
      };
      /** @description Forbidden: `TENANT_MISMATCH` The token was issued for another tenant than X-Tenant-ID; `FORBIDDEN` The user's roles do not give the permission the route needs; `TENANT_SUSPENDED` The tenant is suspended. */
      403: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'Content-Language': components['headers']['Content-Language'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorBody'];
        };
      };
      /** @description Not found: `CONTEO_NOT_FOUND` No count has this id; `NOT_FOUND` The feature is switched off for this tenant: the answer of a route that does not exist; `TENANT_NOT_FOUND` No tenant has this slug. */
      404: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'Content-Language': components['headers']['Content-Language'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorBody'];
        };
      };
      /** @description Conflict: `IDEMPOTENCY_KEY_IN_USE` A request with this Idempotency-Key is still running: retry after Retry-After seconds; `CONTEO_NO_BORRADOR` The count was applied or discarded already. */
      409: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'Content-Language': components['headers']['Content-Language'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorBody'];
        };
      };
      /** @description Unprocessable content: `IDEMPOTENCY_KEY_REUSED` This Idempotency-Key was used for another request (method, route, ids or body). */
      422: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'Content-Language': components['headers']['Content-Language'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorBody'];
        };
      };
      /** @description Too many requests: `RATE_LIMITED` Past RATE_LIMIT_MAX requests in the window (Retry-After). */
      429: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'Content-Language': components['headers']['Content-Language'];
          'Retry-After': components['headers']['Retry-After'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorBody'];
        };
      };
      /** @description Service unavailable: `57014` A statement ran longer than DB_STATEMENT_TIMEOUT_MS and was cancelled (Retry-After); `TENANT_PROVISIONING` The tenant is still being created (Retry-After); `TENANT_SCHEMA_OUTDATED` The tenant’s database is behind this version of the service: the operator migrates it (Retry-After); `DATABASE_UNAVAILABLE` The tenant database (or the catalog) does not answer (Retry-After); `REQUEST_TIMEOUT` Not answered within REQUEST_TIMEOUT_MS (Retry-After). */
      503: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'Content-Language': components['headers']['Content-Language'];
          'Retry-After': components['headers']['Retry-After'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorBody'];
        };
      };
    };
  };
  InventarioController_consumo_v1: {
    parameters: {
      query?: {
        /** @description From: a date YYYY-MM-DD (the tenant’s day) or an instant; the period is after desde, up to and including hasta. Default: the last applied count’s cut-off before hasta, else 30 days before it */
        desde?: string;
        /** @description To: a date YYYY-MM-DD (the tenant’s day) or an instant; the period is after desde, up to and including hasta. Default: now */
        hasta?: string;
      };
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description The report */
      200: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ConsumoDto'];
        };
      };
      /** @description Bad request: `VALIDATION_FAILED` A field or parameter is missing, unknown or of the wrong type or range: one message per field; `TENANT_REQUIRED` No X-Tenant-ID header; `TENANT_INVALID` X-Tenant-ID is not a tenant slug. */
      400: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'Content-Language': components['headers']['Content-Language'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorBody'];
        };
      };
      /** @description Not authenticated: `UNAUTHENTICATED` No token, or a malformed, expired or badly signed one, or not an active user of the tenant (WWW-Authenticate). */
      401: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'Content-Language': components['headers']['Content-Language'];
          'WWW-Authenticate': components['headers']['WWW-Authenticate'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorBody'];
        };
      };
      /** @description Forbidden: `TENANT_MISMATCH` The token was issued for another tenant than X-Tenant-ID; `FORBIDDEN` The user's roles do not give the permission the route needs; `TENANT_SUSPENDED` The tenant is suspended. */
      403: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'Content-Language': components['headers']['Content-Language'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorBody'];
        };
      };
      /** @description Not found: `NOT_FOUND` The feature is switched off for this tenant: the answer of a route that does not exist; `TENANT_NOT_FOUND` No tenant has this slug. */
      404: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'Content-Language': components['headers']['Content-Language'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorBody'];
        };
      };
      /** @description Too many requests: `RATE_LIMITED` Past RATE_LIMIT_MAX requests in the window (Retry-After). */
      429: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'Content-Language': components['headers']['Content-Language'];
          'Retry-After': components['headers']['Retry-After'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorBody'];
        };
      };
      /** @description Service unavailable: `57014` A statement ran longer than DB_STATEMENT_TIMEOUT_MS and was cancelled (Retry-After); `TENANT_PROVISIONING` The tenant is still being created (Retry-After); `TENANT_SCHEMA_OUTDATED` The tenant’s database is behind this version of the service: the operator migrates it (Retry-After); `DATABASE_UNAVAILABLE` The tenant database (or the catalog) does not answer (Retry-After); `REQUEST_TIMEOUT` Not answered within REQUEST_TIMEOUT_MS (Retry-After). */
      503: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'Content-Language': components['headers']['Content-Language'];
          'Retry-After': components['headers']['Retry-After'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorBody'];
        };
      };
    };
  };
  InventarioController_productoCosto_v1: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        /** @description A positive integer id */
        id: number;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description The cost */
      200: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ProductoCostoDto'];
        };
      };
      /** @description Bad request: `TENANT_REQUIRED` No X-Tenant-ID header; `TENANT_INVALID` X-Tenant-ID is not a tenant slug; `INVALID_ID` A path id is not a positive integer of its range. */
      400: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'Content-Language': components['headers']['Content-Language'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorBody'];
        };
      };
      /** @description Not authenticated: `UNAUTHENTICATED` No token, or a malformed, expired or badly signed one, or not an active user of the tenant (WWW-Authenticate). */
      401: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'Content-Language': components['headers']['Content-Language'];
          'WWW-Authenticate': components['headers']['WWW-Authenticate'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorBody'];
        };
      };
      /** @description Forbidden: `TENANT_MISMATCH` The token was issued for another tenant than X-Tenant-ID; `FORBIDDEN` The user's roles do not give the permission the route needs; `TENANT_SUSPENDED` The tenant is suspended. */
      403: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'Content-Language': components['headers']['Content-Language'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorBody'];
        };
      };
      /** @description Not found: `PRODUCTO_NOT_FOUND` No product has this id; `NOT_FOUND` The feature is switched off for this tenant: the answer of a route that does not exist; `TENANT_NOT_FOUND` No tenant has this slug. */
      404: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'Content-Language': components['headers']['Content-Language'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorBody'];
        };
      };
      /** @description Too many requests: `RATE_LIMITED` Past RATE_LIMIT_MAX requests in the window (Retry-After). */
      429: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'Content-Language': components['headers']['Content-Language'];
          'Retry-After': components['headers']['Retry-After'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorBody'];
        };
      };
      /** @description Service unavailable: `57014` A statement ran longer than DB_STATEMENT_TIMEOUT_MS and was cancelled (Retry-After); `TENANT_PROVISIONING` The tenant is still being created (Retry-After); `TENANT_SCHEMA_OUTDATED` The tenant’s database is behind this version of the service: the operator migrates it (Retry-After); `DATABASE_UNAVAILABLE` The tenant database (or the catalog) does not answer (Retry-After); `REQUEST_TIMEOUT` Not answered within REQUEST_TIMEOUT_MS (Retry-After). */
      503: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'Content-Language': components['headers']['Content-Language'];
          'Retry-After': components['headers']['Retry-After'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorBody'];
        };
      };
    };
  };
  CocinaStreamController_stream_v1: {
    parameters: {
      query?: {
        /** @description Only events touching this station’s tickets (an expo station: all) */
        estacion?: number;
        /** @description Resume after this event id (for clients that cannot send Last-Event-ID) */
        lastEventId?: number;
        /** @description For EventSource (no headers): the tenant */
        tenant?: string;
        /** @description With AUTH_MODE=jwt, for EventSource: a token expiring within 5 minutes */
        access_token?: string;
      };
      header?: {
        /** @description The last event id received: the stream resumes after it */
        'Last-Event-ID'?: string;
      };
      path?: never;
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description The stream (text/event-stream), open until the client or the service ends it */
      200: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          [name: string]: unknown;
        };
        content: {
          'text/event-stream': string;
        };
      };
      /** @description Bad request: `VALIDATION_FAILED` A field or parameter is missing, unknown or of the wrong type or range: one message per field; `INVALID_LAST_EVENT_ID` Last-Event-ID is not an event id (a non-negative integer); `TENANT_REQUIRED` No X-Tenant-ID header; `TENANT_INVALID` X-Tenant-ID is not a tenant slug. */
      400: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'Content-Language': components['headers']['Content-Language'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorBody'];
        };
      };
      /** @description Not authenticated: `UNAUTHENTICATED` No token, or a malformed, expired or badly signed one, or not an active user of the tenant (WWW-Authenticate). */
      401: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'Content-Language': components['headers']['Content-Language'];
          'WWW-Authenticate': components['headers']['WWW-Authenticate'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorBody'];
        };
      };
      /** @description Forbidden: `TENANT_MISMATCH` The token was issued for another tenant than X-Tenant-ID; `FORBIDDEN` The user's roles do not give the permission the route needs; `TENANT_SUSPENDED` The tenant is suspended. */
      403: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'Content-Language': components['headers']['Content-Language'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorBody'];
        };
      };
      /** @description Not found: `ESTACION_NOT_FOUND` No station has this id; `NOT_FOUND` The feature is switched off for this tenant: the answer of a route that does not exist; `TENANT_NOT_FOUND` No tenant has this slug. */
      404: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'Content-Language': components['headers']['Content-Language'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorBody'];
        };
      };
      /** @description Too many requests: `TOO_MANY_STREAMS` The tenant's (SSE_MAX_PER_TENANT) or the user's (SSE_MAX_PER_USER) share of the instance's live streams is taken (Retry-After); `RATE_LIMITED` Past RATE_LIMIT_MAX requests in the window (Retry-After). */
      429: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'Content-Language': components['headers']['Content-Language'];
          'Retry-After': components['headers']['Retry-After'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorBody'];
        };
      };
      /** @description Service unavailable: `TOO_MANY_STREAMS` This instance serves SSE_MAX_CLIENTS live streams already (Retry-After): another instance may not; `TENANT_PROVISIONING` The tenant is still being created (Retry-After); `TENANT_SCHEMA_OUTDATED` The tenant’s database is behind this version of the service: the operator migrates it (Retry-After); `DATABASE_UNAVAILABLE` The tenant database (or the catalog) does not answer (Retry-After). */
      503: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'Content-Language': components['headers']['Content-Language'];
          'Retry-After': components['headers']['Retry-After'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorBody'];
        };
      };
    };
  };
  CocinaController_estaciones_v1: {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description By id */
      200: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['EstacionDto'][];
        };
      };
      /** @description Bad request: `TENANT_REQUIRED` No X-Tenant-ID header; `TENANT_INVALID` X-Tenant-ID is not a tenant slug. */
      400: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'Content-Language': components['headers']['Content-Language'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorBody'];
        };
      };
      /** @description Not authenticated: `UNAUTHENTICATED` No token, or a malformed, expired or badly signed one, or not an active user of the tenant (WWW-Authenticate). */
      401: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'Content-Language': components['headers']['Content-Language'];
          'WWW-Authenticate': components['headers']['WWW-Authenticate'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorBody'];
        };
      };
      /** @description Forbidden: `TENANT_MISMATCH` The token was issued for another tenant than X-Tenant-ID; `FORBIDDEN` The user's roles do not give the permission the route needs; `TENANT_SUSPENDED` The tenant is suspended. */
      403: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'Content-Language': components['headers']['Content-Language'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorBody'];
        };
      };
      /** @description Not found: `NOT_FOUND` The feature is switched off for this tenant: the answer of a route that does not exist; `TENANT_NOT_FOUND` No tenant has this slug. */
      404: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'Content-Language': components['headers']['Content-Language'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorBody'];
        };
      };
      /** @description Too many requests: `RATE_LIMITED` Past RATE_LIMIT_MAX requests in the window (Retry-After). */
      429: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'Content-Language': components['headers']['Content-Language'];
          'Retry-After': components['headers']['Retry-After'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorBody'];
        };
      };
      /** @description Service unavailable: `57014` A statement ran longer than DB_STATEMENT_TIMEOUT_MS and was cancelled (Retry-After); `TENANT_PROVISIONING` The tenant is still being created (Retry-After); `TENANT_SCHEMA_OUTDATED` The tenant’s database is behind this version of the service: the operator migrates it (Retry-After); `DATABASE_UNAVAILABLE` The tenant database (or the catalog) does not answer (Retry-After); `REQUEST_TIMEOUT` Not answered within REQUEST_TIMEOUT_MS (Retry-After). */
      503: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'Content-Language': components['headers']['Content-Language'];
          'Retry-After': components['headers']['Retry-After'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorBody'];
        };
      };
    };
  };
  CocinaController_createEstacion_v1: {
    parameters: {
      query?: never;
      header?: {
        /** @description Makes a retry safe: the same key with the same request within IDEMPOTENCY_TTL_HOURS answers what the first answered (with Idempotent-Replayed: true) and does nothing again. 1 to 255 visible ASCII characters, one per intended change (a UUID). */
        'Idempotency-Key'?: string;
      };
      path?: never;
      cookie?: never;
    };
    requestBody: {
      content: {
        'application/json': components['schemas']['EstacionBody'];
      };
    };
    responses: {
      /** @description The new station */
      201: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['EstacionDto'];
        };
      };
      /** @description Bad request: `IDEMPOTENCY_KEY_INVALID` Idempotency-Key is empty, longer than 255 characters, not visible ASCII, or sent twice; `VALIDATION_FAILED` A field or parameter is missing, unknown or of the wrong type or range: one message per field; `TENANT_REQUIRED` No X-Tenant-ID header; `TENANT_INVALID` X-Tenant-ID is not a tenant slug; `INVALID_BODY` The JSON body is not an object (a string, a number, null, an array); `BAD_REQUEST` The body is not valid JSON. */
      400: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'Content-Language': components['headers']['Content-Language'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorBody'];
        };
      };
      /** @description Not authenticated: `UNAUTHENTICATED` No token, or a malformed, expired or badly signed one, or not an active user of the tenant (WWW-Authenticate). */
      401: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'Content-Language': components['headers']['Content-Language'];
          'WWW-Authenticate': components['headers']['WWW-Authenticate'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorBody'];
        };
      };
      /** @description Forbidden: `TENANT_MISMATCH` The token was issued for another tenant than X-Tenant-ID; `FORBIDDEN` The user's roles do not give the permission the route needs; `TENANT_SUSPENDED` The tenant is suspended. */
      403: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'Content-Language': components['headers']['Content-Language'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorBody'];
        };
      };
      /** @description Not found: `NOT_FOUND` The feature is switched off for this tenant: the answer of a route that does not exist; `TENANT_NOT_FOUND` No tenant has this slug. */
      404: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'Content-Language': components['headers']['Content-Language'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorBody'];
        };
      };
      /** @description Conflict: `IDEMPOTENCY_KEY_IN_USE` A request with this Idempotency-Key is still running: retry after Retry-After seconds. */
      409: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'Content-Language': components['headers']['Content-Language'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorBody'];
        };
      };
      /** @description Payload too large: `PAYLOAD_TOO_LARGE` The body is larger than BODY_LIMIT (a file: UPLOAD_MAX_BYTES). */
      413: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'Content-Language': components['headers']['Content-Language'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorBody'];
        };
      };
      /** @description Unsupported media type: `UNSUPPORTED_MEDIA_TYPE` The body came with another Content-Type than the route reads. */
      415: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'Content-Language': components['headers']['Content-Language'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorBody'];
        };
      };
      /** @description Unprocessable content: `IDEMPOTENCY_KEY_REUSED` This Idempotency-Key was used for another request (method, route, ids or body). */
      422: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'Content-Language': components['headers']['Content-Language'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorBody'];
        };
      };
      /** @description Too many requests: `RATE_LIMITED` Past RATE_LIMIT_MAX requests in the window (Retry-After). */
      429: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'Content-Language': components['headers']['Content-Language'];
          'Retry-After': components['headers']['Retry-After'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorBody'];
        };
      };
      /** @description Service unavailable: `57014` A statement ran longer than DB_STATEMENT_TIMEOUT_MS and was cancelled (Retry-After); `TENANT_PROVISIONING` The tenant is still being created (Retry-After); `TENANT_SCHEMA_OUTDATED` The tenant’s database is behind this version of the service: the operator migrates it (Retry-After); `DATABASE_UNAVAILABLE` The tenant database (or the catalog) does not answer (Retry-After); `REQUEST_TIMEOUT` Not answered within REQUEST_TIMEOUT_MS (Retry-After). */
      503: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'Content-Language': components['headers']['Content-Language'];
          'Retry-After': components['headers']['Retry-After'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorBody'];
        };
      };
    };
  };
  CocinaController_updateEstacion_v1: {
    parameters: {
      query?: never;
      header?: {
        /** @description Makes a retry safe: the same key with the same request within IDEMPOTENCY_TTL_HOURS answers what the first answered (with Idempotent-Replayed: true) and does nothing again. 1 to 255 visible ASCII characters, one per intended change (a UUID). */
        'Idempotency-Key'?: string;
      };
      path: {
        /** @description A positive integer id */
        id: number;
      };
      cookie?: never;
    };
    requestBody: {
      content: {
        'application/json': components['schemas']['EstacionPatchBody'];
      };
    };
    responses: {
      /** @description The station as changed */
      200: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['EstacionDto'];
        };
      };
      /** @description Bad request: `IDEMPOTENCY_KEY_INVALID` Idempotency-Key is empty, longer than 255 characters, not visible ASCII, or sent twice; `VALIDATION_FAILED` A field or parameter is missing, unknown or of the wrong type or range: one message per field; `TENANT_REQUIRED` No X-Tenant-ID header; `TENANT_INVALID` X-Tenant-ID is not a tenant slug; `INVALID_BODY` The JSON body is not an object (a string, a number, null, an array); `BAD_REQUEST` The body is not valid JSON; `INVALID_ID` A path id is not a positive integer of its range. */
      400: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'Content-Language': components['headers']['Content-Language'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorBody'];
        };
      };
      /** @description Not authenticated: `UNAUTHENTICATED` No token, or a malformed, expired or badly signed one, or not an active user of the tenant (WWW-Authenticate). */
      401: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'Content-Language': components['headers']['Content-Language'];
          'WWW-Authenticate': components['headers']['WWW-Authenticate'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorBody'];
        };
      };
      /** @description Forbidden: `TENANT_MISMATCH` The token was issued for another tenant than X-Tenant-ID; `FORBIDDEN` The user's roles do not give the permission the route needs; `TENANT_SUSPENDED` The tenant is suspended. */
      403: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'Content-Language': components['headers']['Content-Language'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorBody'];
        };
      };
      /** @description Not found: `ESTACION_NOT_FOUND` No station has this id; `NOT_FOUND` The feature is switched off for this tenant: the answer of a route that does not exist; `TENANT_NOT_FOUND` No tenant has this slug. */
      404: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'Content-Language': components['headers']['Content-Language'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorBody'];
        };
      };
      /** @description Conflict: `IDEMPOTENCY_KEY_IN_USE` A request with this Idempotency-Key is still running: retry after Retry-After seconds. */
      409: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'Content-Language': components['headers']['Content-Language'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorBody'];
        };
      };
      /** @description Payload too large: `PAYLOAD_TOO_LARGE` The body is larger than BODY_LIMIT (a file: UPLOAD_MAX_BYTES). */
      413: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'Content-Language': components['headers']['Content-Language'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorBody'];
        };
      };
      /** @description Unsupported media type: `UNSUPPORTED_MEDIA_TYPE` The body came with another Content-Type than the route reads. */
      415: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'Content-Language': components['headers']['Content-Language'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorBody'];
        };
      };
      /** @description Unprocessable content: `IDEMPOTENCY_KEY_REUSED` This Idempotency-Key was used for another request (method, route, ids or body). */
      422: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'Content-Language': components['headers']['Content-Language'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorBody'];
        };
      };
      /** @description Too many requests: `RATE_LIMITED` Past RATE_LIMIT_MAX requests in the window (Retry-After). */
      429: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'Content-Language': components['headers']['Content-Language'];
          'Retry-After': components['headers']['Retry-After'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorBody'];
        };
      };
      /** @description Service unavailable: `57014` A statement ran longer than DB_STATEMENT_TIMEOUT_MS and was cancelled (Retry-After); `TENANT_PROVISIONING` The tenant is still being created (Retry-After); `TENANT_SCHEMA_OUTDATED` The tenant’s database is behind this version of the service: the operator migrates it (Retry-After); `DATABASE_UNAVAILABLE` The tenant database (or the catalog) does not answer (Retry-After); `REQUEST_TIMEOUT` Not answered within REQUEST_TIMEOUT_MS (Retry-After). */
      503: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'Content-Language': components['headers']['Content-Language'];
          'Retry-After': components['headers']['Retry-After'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorBody'];
        };
      };
    };
  };
  CocinaController_setCategorias_v1: {
    parameters: {
      query?: never;
      header?: {
        /** @description Makes a retry safe: the same key with the same request within IDEMPOTENCY_TTL_HOURS answers what the first answered (with Idempotent-Replayed: true) and does nothing again. 1 to 255 visible ASCII characters, one per intended change (a UUID). */
        'Idempotency-Key'?: string;
      };
      path: {
        /** @description A positive integer id */
        id: number;
      };
      cookie?: never;
    };
    requestBody: {
      content: {
        'application/json': components['schemas']['EstacionCategoriasBody'];
      };
    };
    responses: {
      /** @description The station with its categories */
      200: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['EstacionDto'];
        };
      };
      /** @description Bad request: `IDEMPOTENCY_KEY_INVALID` Idempotency-Key is empty, longer than 255 characters, not visible ASCII, or sent twice; `CATEGORIA_NOT_FOUND` A category listed does not exist; `VALIDATION_FAILED` A field or parameter is missing, unknown or of the wrong type or range: one message per field; `TENANT_REQUIRED` No X-Tenant-ID header; `TENANT_INVALID` X-Tenant-ID is not a tenant slug; `INVALID_BODY` The JSON body is not an object (a string, a number, null, an array); `BAD_REQUEST` The body is not valid JSON; `INVALID_ID` A path id is not a positive integer of its range. */
      400: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'Content-Language': components['headers']['Content-Language'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorBody'];
        };
      };
      /** @description Not authenticated: `UNAUTHENTICATED` No token, or a malformed, expired or badly signed one, or not an active user of the tenant (WWW-Authenticate). */
      401: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'Content-Language': components['headers']['Content-Language'];
          'WWW-Authenticate': components['headers']['WWW-Authenticate'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorBody'];
        };
      };
      /** @description Forbidden: `TENANT_MISMATCH` The token was issued for another tenant than X-Tenant-ID; `FORBIDDEN` The user's roles do not give the permission the route needs; `TENANT_SUSPENDED` The tenant is suspended. */
      403: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'Content-Language': components['headers']['Content-Language'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorBody'];
        };
      };
      /** @description Not found: `ESTACION_NOT_FOUND` No station has this id; `NOT_FOUND` The feature is switched off for this tenant: the answer of a route that does not exist; `TENANT_NOT_FOUND` No tenant has this slug. */
      404: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'Content-Language': components['headers']['Content-Language'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorBody'];
        };
      };
      /** @description Conflict: `IDEMPOTENCY_KEY_IN_USE` A request with this Idempotency-Key is still running: retry after Retry-After seconds. */
      409: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'Content-Language': components['headers']['Content-Language'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorBody'];
        };
      };
      /** @description Payload too large: `PAYLOAD_TOO_LARGE` The body is larger than BODY_LIMIT (a file: UPLOAD_MAX_BYTES). */
      413: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'Content-Language': components['headers']['Content-Language'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorBody'];
        };
      };
      /** @description Unsupported media type: `UNSUPPORTED_MEDIA_TYPE` The body came with another Content-Type than the route reads. */
      415: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'Content-Language': components['headers']['Content-Language'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorBody'];
        };
      };
      /** @description Unprocessable content: `IDEMPOTENCY_KEY_REUSED` This Idempotency-Key was used for another request (method, route, ids or body). */
      422: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'Content-Language': components['headers']['Content-Language'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorBody'];
        };
      };
      /** @description Too many requests: `RATE_LIMITED` Past RATE_LIMIT_MAX requests in the window (Retry-After). */
      429: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'Content-Language': components['headers']['Content-Language'];
          'Retry-After': components['headers']['Retry-After'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorBody'];
        };
      };
      /** @description Service unavailable: `57014` A statement ran longer than DB_STATEMENT_TIMEOUT_MS and was cancelled (Retry-After); `TENANT_PROVISIONING` The tenant is still being created (Retry-After); `TENANT_SCHEMA_OUTDATED` The tenant’s database is behind this version of the service: the operator migrates it (Retry-After); `DATABASE_UNAVAILABLE` The tenant database (or the catalog) does not answer (Retry-After); `REQUEST_TIMEOUT` Not answered within REQUEST_TIMEOUT_MS (Retry-After). */
      503: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'Content-Language': components['headers']['Content-Language'];
          'Retry-After': components['headers']['Retry-After'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorBody'];
        };
      };
    };
  };
  CocinaController_envios_v1: {
    parameters: {
      query?: {
        /** @description The station whose tickets (an expo station: every station’s); default: all */
        estacion?: number;
        /** @description pendiente (default: pendiente and en_preparacion, oldest first), listo (newest first), todos (newest first) */
        estado?: 'pendiente' | 'listo' | 'todos';
        /** @description Page size (above the maximum is 400, not cut) */
        limit?: number;
        /** @description Tickets skipped before the page */
        offset?: number;
      };
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description A page of tickets */
      200: {
        headers: {
          /** @description Tickets matching the filters, whatever the page */
          'X-Total-Count'?: number;
          'X-Request-Id': components['headers']['X-Request-Id'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['EnvioDto'][];
        };
      };
      /** @description Bad request: `VALIDATION_FAILED` A field or parameter is missing, unknown or of the wrong type or range: one message per field; `TENANT_REQUIRED` No X-Tenant-ID header; `TENANT_INVALID` X-Tenant-ID is not a tenant slug. */
      400: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'Content-Language': components['headers']['Content-Language'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorBody'];
        };
      };
      /** @description Not authenticated: `UNAUTHENTICATED` No token, or a malformed, expired or badly signed one, or not an active user of the tenant (WWW-Authenticate). */
      401: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'Content-Language': components['headers']['Content-Language'];
          'WWW-Authenticate': components['headers']['WWW-Authenticate'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorBody'];
        };
      };
      /** @description Forbidden: `TENANT_MISMATCH` The token was issued for another tenant than X-Tenant-ID; `FORBIDDEN` The user's roles do not give the permission the route needs; `TENANT_SUSPENDED` The tenant is suspended. */
      403: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'Content-Language': components['headers']['Content-Language'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorBody'];
        };
      };
      /** @description Not found: `ESTACION_NOT_FOUND` No station has this id; `NOT_FOUND` The feature is switched off for this tenant: the answer of a route that does not exist; `TENANT_NOT_FOUND` No tenant has this slug. */
      404: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'Content-Language': components['headers']['Content-Language'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorBody'];
        };
      };
      /** @description Too many requests: `RATE_LIMITED` Past RATE_LIMIT_MAX requests in the window (Retry-After). */
      429: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'Content-Language': components['headers']['Content-Language'];
          'Retry-After': components['headers']['Retry-After'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorBody'];
        };
      };
      /** @description Service unavailable: `57014` A statement ran longer than DB_STATEMENT_TIMEOUT_MS and was cancelled (Retry-After); `TENANT_PROVISIONING` The tenant is still being created (Retry-After); `TENANT_SCHEMA_OUTDATED` The tenant’s database is behind this version of the service: the operator migrates it (Retry-After); `DATABASE_UNAVAILABLE` The tenant database (or the catalog) does not answer (Retry-After); `REQUEST_TIMEOUT` Not answered within REQUEST_TIMEOUT_MS (Retry-After). */
      503: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'Content-Language': components['headers']['Content-Language'];
          'Retry-After': components['headers']['Retry-After'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorBody'];
        };
      };
    };
  };
  CocinaController_preparar_v1: {
    parameters: {
      query?: never;
      header?: {
        /** @description Makes a retry safe: the same key with the same request within IDEMPOTENCY_TTL_HOURS answers what the first answered (with Idempotent-Replayed: true) and does nothing again. 1 to 255 visible ASCII characters, one per intended change (a UUID). */
        'Idempotency-Key'?: string;
      };
      path: {
        /** @description A positive integer id */
        id: number;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description The ticket */
      200: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['EnvioDto'];
        };
      };
      /** @description Bad request: `IDEMPOTENCY_KEY_INVALID` Idempotency-Key is empty, longer than 255 characters, not visible ASCII, or sent twice; `TENANT_REQUIRED` No X-Tenant-ID header; `TENANT_INVALID` X-Tenant-ID is not a tenant slug; `INVALID_ID` A path id is not a positive integer of its range. */
      400: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'Content-Language': components['headers']['Content-Language'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorBody'];
        };
      };
      /** @description Not authenticated: `UNAUTHENTICATED` No token, or a malformed, expired or badly signed one, or not an active user of the tenant (WWW-Authenticate). */
      401: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'Content-Language': components['headers']['Content-Language'];
          'WWW-Authenticate': components['headers']['WWW-Authenticate'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorBody'];
        };
      };
      /** @description Forbidden: `TENANT_MISMATCH` The token was issued for another tenant than X-Tenant-ID; `FORBIDDEN` The user's roles do not give the permission the route needs; `TENANT_SUSPENDED` The tenant is suspended. */
      403: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'Content-Language': components['headers']['Content-Language'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorBody'];
        };
      };
      /** @description Not found: `ENVIO_NOT_FOUND` No ticket has this id; `NOT_FOUND` The feature is switched off for this tenant: the answer of a route that does not exist; `TENANT_NOT_FOUND` No tenant has this slug. */
      404: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'Content-Language': components['headers']['Content-Language'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorBody'];
        };
      };
      /** @description Conflict: `IDEMPOTENCY_KEY_IN_USE` A request with this Idempotency-Key is still running: retry after Retry-After seconds; `ENVIO_MOVIDO` The ticket’s lines kept moving to other comandas while it waited: retry; `ESTADO_COCINA_INVALIDO` The line or ticket is not in a state that moves there; `INVALID_TRANSITION` Not allowed in the comanda’s current state (detail.estado). */
      409: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'Content-Language': components['headers']['Content-Language'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorBody'];
        };
      };
      /** @description Unprocessable content: `IDEMPOTENCY_KEY_REUSED` This Idempotency-Key was used for another request (method, route, ids or body). */
      422: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'Content-Language': components['headers']['Content-Language'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorBody'];
        };
      };
      /** @description Too many requests: `RATE_LIMITED` Past RATE_LIMIT_MAX requests in the window (Retry-After). */
      429: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'Content-Language': components['headers']['Content-Language'];
          'Retry-After': components['headers']['Retry-After'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorBody'];
        };
      };
      /** @description Service unavailable: `57014` A statement ran longer than DB_STATEMENT_TIMEOUT_MS and was cancelled (Retry-After); `TENANT_PROVISIONING` The tenant is still being created (Retry-After); `TENANT_SCHEMA_OUTDATED` The tenant’s database is behind this version of the service: the operator migrates it (Retry-After); `DATABASE_UNAVAILABLE` The tenant database (or the catalog) does not answer (Retry-After); `REQUEST_TIMEOUT` Not answered within REQUEST_TIMEOUT_MS (Retry-After). */
      503: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'Content-Language': components['headers']['Content-Language'];
          'Retry-After': components['headers']['Retry-After'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorBody'];
        };
      };
    };
  };
  CocinaController_listo_v1: {
    parameters: {
      query?: never;
      header?: {
        /** @description Makes a retry safe: the same key with the same request within IDEMPOTENCY_TTL_HOURS answers what the first answered (with Idempotent-Replayed: true) and does nothing again. 1 to 255 visible ASCII characters, one per intended change (a UUID). */
        'Idempotency-Key'?: string;
      };
      path: {
        /** @description A positive integer id */
        id: number;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description The ticket */
      200: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['EnvioDto'];
        };
      };
      /** @description Bad request: `IDEMPOTENCY_KEY_INVALID` Idempotency-Key is empty, longer than 255 characters, not visible ASCII, or sent twice; `TENANT_REQUIRED` No X-Tenant-ID header; `TENANT_INVALID` X-Tenant-ID is not a tenant slug; `INVALID_ID` A path id is not a positive integer of its range. */
      400: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'Content-Language': components['headers']['Content-Language'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorBody'];
        };
      };
      /** @description Not authenticated: `UNAUTHENTICATED` No token, or a malformed, expired or badly signed one, or not an active user of the tenant (WWW-Authenticate). */
      401: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'Content-Language': components['headers']['Content-Language'];
          'WWW-Authenticate': components['headers']['WWW-Authenticate'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorBody'];
        };
      };
      /** @description Forbidden: `TENANT_MISMATCH` The token was issued for another tenant than X-Tenant-ID; `FORBIDDEN` The user's roles do not give the permission the route needs; `TENANT_SUSPENDED` The tenant is suspended. */
      403: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'Content-Language': components['headers']['Content-Language'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorBody'];
        };
      };
      /** @description Not found: `ENVIO_NOT_FOUND` No ticket has this id; `NOT_FOUND` The feature is switched off for this tenant: the answer of a route that does not exist; `TENANT_NOT_FOUND` No tenant has this slug. */
      404: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'Content-Language': components['headers']['Content-Language'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorBody'];
        };
      };
      /** @description Conflict: `IDEMPOTENCY_KEY_IN_USE` A request with this Idempotency-Key is still running: retry after Retry-After seconds; `ENVIO_MOVIDO` The ticket’s lines kept moving to other comandas while it waited: retry; `ESTADO_COCINA_INVALIDO` The line or ticket is not in a state that moves there. */
      409: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'Content-Language': components['headers']['Content-Language'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorBody'];
        };
      };
      /** @description Unprocessable content: `IDEMPOTENCY_KEY_REUSED` This Idempotency-Key was used for another request (method, route, ids or body). */
      422: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'Content-Language': components['headers']['Content-Language'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorBody'];
        };
      };
      /** @description Too many requests: `RATE_LIMITED` Past RATE_LIMIT_MAX requests in the window (Retry-After). */
      429: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'Content-Language': components['headers']['Content-Language'];
          'Retry-After': components['headers']['Retry-After'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorBody'];
        };
      };
      /** @description Service unavailable: `57014` A statement ran longer than DB_STATEMENT_TIMEOUT_MS and was cancelled (Retry-After); `TENANT_PROVISIONING` The tenant is still being created (Retry-After); `TENANT_SCHEMA_OUTDATED` The tenant’s database is behind this version of the service: the operator migrates it (Retry-After); `DATABASE_UNAVAILABLE` The tenant database (or the catalog) does not answer (Retry-After); `REQUEST_TIMEOUT` Not answered within REQUEST_TIMEOUT_MS (Retry-After). */
      503: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'Content-Language': components['headers']['Content-Language'];
          'Retry-After': components['headers']['Retry-After'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorBody'];
        };
      };
    };
  };
  CocinaController_recuperar_v1: {
    parameters: {
      query?: never;
      header?: {
        /** @description Makes a retry safe: the same key with the same request within IDEMPOTENCY_TTL_HOURS answers what the first answered (with Idempotent-Replayed: true) and does nothing again. 1 to 255 visible ASCII characters, one per intended change (a UUID). */
        'Idempotency-Key'?: string;
      };
      path: {
        /** @description A positive integer id */
        id: number;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description The ticket */
      200: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['EnvioDto'];
        };
      };
      /** @description Bad request: `IDEMPOTENCY_KEY_INVALID` Idempotency-Key is empty, longer than 255 characters, not visible ASCII, or sent twice; `TENANT_REQUIRED` No X-Tenant-ID header; `TENANT_INVALID` X-Tenant-ID is not a tenant slug; `INVALID_ID` A path id is not a positive integer of its range. */
      400: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'Content-Language': components['headers']['Content-Language'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorBody'];
        };
      };
      /** @description Not authenticated: `UNAUTHENTICATED` No token, or a malformed, expired or badly signed one, or not an active user of the tenant (WWW-Authenticate). */
      401: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'Content-Language': components['headers']['Content-Language'];
          'WWW-Authenticate': components['headers']['WWW-Authenticate'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorBody'];
        };
      };
      /** @description Forbidden: `TENANT_MISMATCH` The token was issued for another tenant than X-Tenant-ID; `FORBIDDEN` The user's roles do not give the permission the route needs; `TENANT_SUSPENDED` The tenant is suspended. */
      403: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'Content-Language': components['headers']['Content-Language'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorBody'];
        };
      };
      /** @description Not found: `ENVIO_NOT_FOUND` No ticket has this id; `NOT_FOUND` The feature is switched off for this tenant: the answer of a route that does not exist; `TENANT_NOT_FOUND` No tenant has this slug. */
      404: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'Content-Language': components['headers']['Content-Language'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorBody'];
        };
      };
      /** @description Conflict: `IDEMPOTENCY_KEY_IN_USE` A request with this Idempotency-Key is still running: retry after Retry-After seconds; `ENVIO_MOVIDO` The ticket’s lines kept moving to other comandas while it waited: retry; `ESTADO_COCINA_INVALIDO` The line or ticket is not in a state that moves there; `INVALID_TRANSITION` Not allowed in the comanda’s current state (detail.estado). */
      409: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'Content-Language': components['headers']['Content-Language'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorBody'];
        };
      };
      /** @description Unprocessable content: `IDEMPOTENCY_KEY_REUSED` This Idempotency-Key was used for another request (method, route, ids or body). */
      422: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'Content-Language': components['headers']['Content-Language'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorBody'];
        };
      };
      /** @description Too many requests: `RATE_LIMITED` Past RATE_LIMIT_MAX requests in the window (Retry-After). */
      429: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'Content-Language': components['headers']['Content-Language'];
          'Retry-After': components['headers']['Retry-After'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorBody'];
        };
      };
      /** @description Service unavailable: `57014` A statement ran longer than DB_STATEMENT_TIMEOUT_MS and was cancelled (Retry-After); `TENANT_PROVISIONING` The tenant is still being created (Retry-After); `TENANT_SCHEMA_OUTDATED` The tenant’s database is behind this version of the service: the operator migrates it (Retry-After); `DATABASE_UNAVAILABLE` The tenant database (or the catalog) does not answer (Retry-After); `REQUEST_TIMEOUT` Not answered within REQUEST_TIMEOUT_MS (Retry-After). */
      503: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'Content-Language': components['headers']['Content-Language'];
          'Retry-After': components['headers']['Retry-After'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorBody'];
        };
      };
    };
  };
  CocinaComandasController_enviar_v1: {
    parameters: {
      query?: never;
      header?: {
        /** @description The ETag of the resource as last read ("3"): 412 STALE_VERSION when it changed since */
        'If-Match'?: string;
        /** @description Makes a retry safe: the same key with the same request within IDEMPOTENCY_TTL_HOURS answers what the first answered (with Idempotent-Replayed: true) and does nothing again. 1 to 255 visible ASCII characters, one per intended change (a UUID). */
        'Idempotency-Key'?: string;
      };
      path: {
        /** @description A positive integer id */
        id: number;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description The tickets written and the comanda’s version */
      200: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['EnvioResult'];
        };
      };
      /** @description Bad request: `IDEMPOTENCY_KEY_INVALID` Idempotency-Key is empty, longer than 255 characters, not visible ASCII, or sent twice; `TENANT_REQUIRED` No X-Tenant-ID header; `TENANT_INVALID` X-Tenant-ID is not a tenant slug; `INVALID_IF_MATCH` If-Match is not an ETag such as "3"; `INVALID_ID` A path id is not a positive integer of its range. */
      400: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'Content-Language': components['headers']['Content-Language'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorBody'];
        };
      };
      /** @description Not authenticated: `UNAUTHENTICATED` No token, or a malformed, expired or badly signed one, or not an active user of the tenant (WWW-Authenticate). */
      401: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'Content-Language': components['headers']['Content-Language'];
          'WWW-Authenticate': components['headers']['WWW-Authenticate'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorBody'];
        };
      };
      /** @description Forbidden: `TENANT_MISMATCH` The token was issued for another tenant than X-Tenant-ID; `FORBIDDEN` The user's roles do not give the permission the route needs; `TENANT_SUSPENDED` The tenant is suspended. */
      403: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'Content-Language': components['headers']['Content-Language'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorBody'];
        };
      };
      /** @description Not found: `COMANDA_NOT_FOUND` No comanda has this id; `NOT_FOUND` The feature is switched off for this tenant: the answer of a route that does not exist; `TENANT_NOT_FOUND` No tenant has this slug. */
      404: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'Content-Language': components['headers']['Content-Language'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorBody'];
        };
      };
      /** @description Conflict: `IDEMPOTENCY_KEY_IN_USE` A request with this Idempotency-Key is still running: retry after Retry-After seconds; `INVALID_TRANSITION` The comanda is not abierta; `SIN_ESTACION` No active preparation station to route a line to. */
      409: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'Content-Language': components['headers']['Content-Language'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorBody'];
        };
      };
      /** @description Precondition failed: `STALE_VERSION` If-Match names another version than the current one. */
      412: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'Content-Language': components['headers']['Content-Language'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorBody'];
        };
      };
      /** @description Unprocessable content: `IDEMPOTENCY_KEY_REUSED` This Idempotency-Key was used for another request (method, route, ids or body). */
      422: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'Content-Language': components['headers']['Content-Language'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorBody'];
        };
      };
      /** @description Too many requests: `RATE_LIMITED` Past RATE_LIMIT_MAX requests in the window (Retry-After). */
      429: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'Content-Language': components['headers']['Content-Language'];
          'Retry-After': components['headers']['Retry-After'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorBody'];
        };
      };
      /** @description Service unavailable: `57014` A statement ran longer than DB_STATEMENT_TIMEOUT_MS and was cancelled (Retry-After); `TENANT_PROVISIONING` The tenant is still being created (Retry-After); `TENANT_SCHEMA_OUTDATED` The tenant’s database is behind this version of the service: the operator migrates it (Retry-After); `DATABASE_UNAVAILABLE` The tenant database (or the catalog) does not answer (Retry-After); `REQUEST_TIMEOUT` Not answered within REQUEST_TIMEOUT_MS (Retry-After). */
      503: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'Content-Language': components['headers']['Content-Language'];
          'Retry-After': components['headers']['Retry-After'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorBody'];
        };
      };
    };
  };
  CocinaComandasController_disparar_v1: {
    parameters: {
      query?: never;
      header?: {
        /** @description The ETag of the resource as last read ("3"): 412 STALE_VERSION when it changed since */
        'If-Match'?: string;
        /** @description Makes a retry safe: the same key with the same request within IDEMPOTENCY_TTL_HOURS answers what the first answered (with Idempotent-Replayed: true) and does nothing again. 1 to 255 visible ASCII characters, one per intended change (a UUID). */
        'Idempotency-Key'?: string;
      };
      path: {
        /** @description A positive integer id */
        id: number;
        /** @description A positive integer id */
        n: number;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description The tickets written and the comanda’s version */
      200: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['EnvioResult'];
        };
      };
      /** @description Bad request: `IDEMPOTENCY_KEY_INVALID` Idempotency-Key is empty, longer than 255 characters, not visible ASCII, or sent twice; `VALIDATION_FAILED` A field or parameter is missing, unknown or of the wrong type or range: one message per field; `TENANT_REQUIRED` No X-Tenant-ID header; `TENANT_INVALID` X-Tenant-ID is not a tenant slug; `INVALID_IF_MATCH` If-Match is not an ETag such as "3"; `INVALID_ID` A path id is not a positive integer of its range; `INVALID_ID` A path id is not a positive integer of its range. */
      400: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'Content-Language': components['headers']['Content-Language'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorBody'];
        };
      };
      /** @description Not authenticated: `UNAUTHENTICATED` No token, or a malformed, expired or badly signed one, or not an active user of the tenant (WWW-Authenticate). */
      401: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'Content-Language': components['headers']['Content-Language'];
          'WWW-Authenticate': components['headers']['WWW-Authenticate'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorBody'];
        };
      };
      /** @description Forbidden: `TENANT_MISMATCH` The token was issued for another tenant than X-Tenant-ID; `FORBIDDEN` The user's roles do not give the permission the route needs; `TENANT_SUSPENDED` The tenant is suspended. */
      403: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'Content-Language': components['headers']['Content-Language'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorBody'];
        };
      };
      /** @description Not found: `COMANDA_NOT_FOUND` No comanda has this id; `NOT_FOUND` The feature is switched off for this tenant: the answer of a route that does not exist; `TENANT_NOT_FOUND` No tenant has this slug. */
      404: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'Content-Language': components['headers']['Content-Language'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorBody'];
        };
      };
      /** @description Conflict: `IDEMPOTENCY_KEY_IN_USE` A request with this Idempotency-Key is still running: retry after Retry-After seconds; `INVALID_TRANSITION` The comanda is not abierta; `CURSO_YA_DISPARADO` The course was fired already; `SIN_ESTACION` No active preparation station to route a line to. */
      409: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'Content-Language': components['headers']['Content-Language'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorBody'];
        };
      };
      /** @description Precondition failed: `STALE_VERSION` If-Match names another version than the current one. */
      412: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'Content-Language': components['headers']['Content-Language'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorBody'];
        };
      };
      /** @description Unprocessable content: `IDEMPOTENCY_KEY_REUSED` This Idempotency-Key was used for another request (method, route, ids or body). */
      422: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'Content-Language': components['headers']['Content-Language'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorBody'];
        };
      };
      /** @description Too many requests: `RATE_LIMITED` Past RATE_LIMIT_MAX requests in the window (Retry-After). */
      429: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'Content-Language': components['headers']['Content-Language'];
          'Retry-After': components['headers']['Retry-After'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorBody'];
        };
      };
      /** @description Service unavailable: `57014` A statement ran longer than DB_STATEMENT_TIMEOUT_MS and was cancelled (Retry-After); `TENANT_PROVISIONING` The tenant is still being created (Retry-After); `TENANT_SCHEMA_OUTDATED` The tenant’s database is behind this version of the service: the operator migrates it (Retry-After); `DATABASE_UNAVAILABLE` The tenant database (or the catalog) does not answer (Retry-After); `REQUEST_TIMEOUT` Not answered within REQUEST_TIMEOUT_MS (Retry-After). */
      503: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'Content-Language': components['headers']['Content-Language'];
          'Retry-After': components['headers']['Retry-After'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorBody'];
        };
      };
    };
  };
  CocinaComandasController_entregar_v1: {
    parameters: {
      query?: never;
      header?: {
        /** @description The ETag of the resource as last read ("3"): 412 STALE_VERSION when it changed since */
        'If-Match'?: string;
        /** @description Makes a retry safe: the same key with the same request within IDEMPOTENCY_TTL_HOURS answers what the first answered (with Idempotent-Replayed: true) and does nothing again. 1 to 255 visible ASCII characters, one per intended change (a UUID). */
        'Idempotency-Key'?: string;
      };
      path: {
        /** @description A positive integer id */
        id: number;
        /** @description A positive integer id */
        itemId: number;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description The comanda with the line served */
      200: {
        headers: {
          /** @description The version, quoted ("3"): send it back in If-Match */
          ETag?: string;
          'X-Request-Id': components['headers']['X-Request-Id'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ComandaDetail'];
        };
      };
      /** @description Bad request: `IDEMPOTENCY_KEY_INVALID` Idempotency-Key is empty, longer than 255 characters, not visible ASCII, or sent twice; `TENANT_REQUIRED` No X-Tenant-ID header; `TENANT_INVALID` X-Tenant-ID is not a tenant slug; `INVALID_IF_MATCH` If-Match is not an ETag such as "3"; `INVALID_ID` A path id is not a positive integer of its range; `INVALID_ID` A path id is not a positive integer of its range. */
      400: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'Content-Language': components['headers']['Content-Language'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorBody'];
        };
      };
      /** @description Not authenticated: `UNAUTHENTICATED` No token, or a malformed, expired or badly signed one, or not an active user of the tenant (WWW-Authenticate). */
      401: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'Content-Language': components['headers']['Content-Language'];
          'WWW-Authenticate': components['headers']['WWW-Authenticate'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorBody'];
        };
      };
      /** @description Forbidden: `TENANT_MISMATCH` The token was issued for another tenant than X-Tenant-ID; `FORBIDDEN` The user's roles do not give the permission the route needs; `TENANT_SUSPENDED` The tenant is suspended. */
      403: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'Content-Language': components['headers']['Content-Language'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorBody'];
        };
      };
      /** @description Not found: `COMANDA_NOT_FOUND` No comanda has this id; `ITEM_NOT_FOUND` The comanda has no line with this id; `NOT_FOUND` The feature is switched off for this tenant: the answer of a route that does not exist; `TENANT_NOT_FOUND` No tenant has this slug. */
      404: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'Content-Language': components['headers']['Content-Language'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorBody'];
        };
      };
      /** @description Conflict: `IDEMPOTENCY_KEY_IN_USE` A request with this Idempotency-Key is still running: retry after Retry-After seconds; `ESTADO_COCINA_INVALIDO` The line or ticket is not in a state that moves there; `INVALID_TRANSITION` The comanda is not abierta. */
      409: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'Content-Language': components['headers']['Content-Language'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorBody'];
        };
      };
      /** @description Precondition failed: `STALE_VERSION` If-Match names another version than the current one. */
      412: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'Content-Language': components['headers']['Content-Language'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorBody'];
        };
      };
      /** @description Unprocessable content: `IDEMPOTENCY_KEY_REUSED` This Idempotency-Key was used for another request (method, route, ids or body). */
      422: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'Content-Language': components['headers']['Content-Language'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorBody'];
        };
      };
      /** @description Too many requests: `RATE_LIMITED` Past RATE_LIMIT_MAX requests in the window (Retry-After). */
      429: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'Content-Language': components['headers']['Content-Language'];
          'Retry-After': components['headers']['Retry-After'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorBody'];
        };
      };
      /** @description Service unavailable: `57014` A statement ran longer than DB_STATEMENT_TIMEOUT_MS and was cancelled (Retry-After); `TENANT_PROVISIONING` The tenant is still being created (Retry-After); `TENANT_SCHEMA_OUTDATED` The tenant’s database is behind this version of the service: the operator migrates it (Retry-After); `DATABASE_UNAVAILABLE` The tenant database (or the catalog) does not answer (Retry-After); `REQUEST_TIMEOUT` Not answered within REQUEST_TIMEOUT_MS (Retry-After). */
      503: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'Content-Language': components['headers']['Content-Language'];
          'Retry-After': components['headers']['Retry-After'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorBody'];
        };
      };
    };
  };
  ReportesController_ventas_v1: {
    parameters: {
      query?: {
        /** @description From: The tenant’s local day, YYYY-MM-DD (both ends included; at most 731 days). Default: the first day of hasta’s month */
        desde?: string;
        /** @description To: The tenant’s local day, YYYY-MM-DD (both ends included; at most 731 days). Default: today */
        hasta?: string;
        /** @description One row per day, ISO week (its Monday), month, hour of the day, (weekday, hour), product, category, waiter, table or payment method (metodo: feature cobros) */
        agrupar?:
          | 'dia'
          | 'semana'
          | 'mes'
          | 'hora'
          | 'dia_semana_hora'
          | 'producto'
          | 'categoria'
          | 'mozo'
          | 'mesa'
          | 'metodo';
      };
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description The report: JSON, or with Accept: text/csv its rows as a CSV file (UTF-8 with a BOM, CRLF, RFC 4180; Content-Disposition: attachment) */
      200: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ReporteVentasDto'];
          'text/csv': string;
        };
      };
      /** @description Bad request: `VALIDATION_FAILED` A field or parameter is missing, unknown or of the wrong type or range: one message per field; `REPORTE_REQUIERE_COBROS` agrupar=metodo while the feature cobros is off for the tenant; `TENANT_REQUIRED` No X-Tenant-ID header; `TENANT_INVALID` X-Tenant-ID is not a tenant slug. */
      400: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'Content-Language': components['headers']['Content-Language'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorBody'];
        };
      };
      /** @description Not authenticated: `UNAUTHENTICATED` No token, or a malformed, expired or badly signed one, or not an active user of the tenant (WWW-Authenticate). */
      401: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'Content-Language': components['headers']['Content-Language'];
          'WWW-Authenticate': components['headers']['WWW-Authenticate'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorBody'];
        };
      };
      /** @description Forbidden: `TENANT_MISMATCH` The token was issued for another tenant than X-Tenant-ID; `FORBIDDEN` The user's roles do not give the permission the route needs; `TENANT_SUSPENDED` The tenant is suspended. */
      403: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'Content-Language': components['headers']['Content-Language'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorBody'];
        };
      };
      /** @description Not found: `NOT_FOUND` The feature is switched off for this tenant: the answer of a route that does not exist; `TENANT_NOT_FOUND` No tenant has this slug. */
      404: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'Content-Language': components['headers']['Content-Language'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorBody'];
        };
      };
      /** @description Too many requests: `RATE_LIMITED` Past RATE_LIMIT_MAX requests in the window (Retry-After). */
      429: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'Content-Language': components['headers']['Content-Language'];
          'Retry-After': components['headers']['Retry-After'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorBody'];
        };
      };
      /** @description Service unavailable: `57014` A statement ran longer than DB_STATEMENT_TIMEOUT_MS and was cancelled (Retry-After); `TENANT_PROVISIONING` The tenant is still being created (Retry-After); `TENANT_SCHEMA_OUTDATED` The tenant’s database is behind this version of the service: the operator migrates it (Retry-After); `DATABASE_UNAVAILABLE` The tenant database (or the catalog) does not answer (Retry-After); `REQUEST_TIMEOUT` Not answered within REQUEST_TIMEOUT_MS (Retry-After). */
      503: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'Content-Language': components['headers']['Content-Language'];
          'Retry-After': components['headers']['Retry-After'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorBody'];
        };
      };
    };
  };
  ReportesController_gastos_v1: {
    parameters: {
      query?: {
        /** @description From: The tenant’s local day, YYYY-MM-DD (both ends included; at most 731 days). Default: the first day of the month 11 months before hasta’s */
        desde?: string;
        /** @description To: The tenant’s local day, YYYY-MM-DD (both ends included; at most 731 days). Default: today */
        hasta?: string;
      };
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description The report: JSON, or with Accept: text/csv its rows as a CSV file (UTF-8 with a BOM, CRLF, RFC 4180; Content-Disposition: attachment) */
      200: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ReporteGastosDto'];
          'text/csv': string;
        };
      };
      /** @description Bad request: `VALIDATION_FAILED` A field or parameter is missing, unknown or of the wrong type or range: one message per field; `TENANT_REQUIRED` No X-Tenant-ID header; `TENANT_INVALID` X-Tenant-ID is not a tenant slug. */
      400: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'Content-Language': components['headers']['Content-Language'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorBody'];
        };
      };
      /** @description Not authenticated: `UNAUTHENTICATED` No token, or a malformed, expired or badly signed one, or not an active user of the tenant (WWW-Authenticate). */
      401: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'Content-Language': components['headers']['Content-Language'];
          'WWW-Authenticate': components['headers']['WWW-Authenticate'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorBody'];
        };
      };
      /** @description Forbidden: `TENANT_MISMATCH` The token was issued for another tenant than X-Tenant-ID; `FORBIDDEN` The user's roles do not give the permission the route needs; `TENANT_SUSPENDED` The tenant is suspended. */
      403: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'Content-Language': components['headers']['Content-Language'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorBody'];
        };
      };
      /** @description Not found: `NOT_FOUND` The feature is switched off for this tenant: the answer of a route that does not exist; `TENANT_NOT_FOUND` No tenant has this slug. */
      404: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'Content-Language': components['headers']['Content-Language'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorBody'];
        };
      };
      /** @description Too many requests: `RATE_LIMITED` Past RATE_LIMIT_MAX requests in the window (Retry-After). */
      429: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'Content-Language': components['headers']['Content-Language'];
          'Retry-After': components['headers']['Retry-After'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorBody'];
        };
      };
      /** @description Service unavailable: `57014` A statement ran longer than DB_STATEMENT_TIMEOUT_MS and was cancelled (Retry-After); `TENANT_PROVISIONING` The tenant is still being created (Retry-After); `TENANT_SCHEMA_OUTDATED` The tenant’s database is behind this version of the service: the operator migrates it (Retry-After); `DATABASE_UNAVAILABLE` The tenant database (or the catalog) does not answer (Retry-After); `REQUEST_TIMEOUT` Not answered within REQUEST_TIMEOUT_MS (Retry-After). */
      503: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'Content-Language': components['headers']['Content-Language'];
          'Retry-After': components['headers']['Retry-After'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorBody'];
        };
      };
    };
  };
  ReportesController_asistencia_v1: {
    parameters: {
      query?: {
        /** @description From (a work day): The tenant’s local day, YYYY-MM-DD (both ends included; at most 731 days). Default: 29 days before hasta (30 days) */
        desde?: string;
        /** @description To (a work day): The tenant’s local day, YYYY-MM-DD (both ends included; at most 731 days). Default: today */
        hasta?: string;
      };
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description The report: JSON, or with Accept: text/csv its rows as a CSV file (UTF-8 with a BOM, CRLF, RFC 4180; Content-Disposition: attachment) */
      200: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ReporteAsistenciaDto'];
          'text/csv': string;
        };
      };
      /** @description Bad request: `VALIDATION_FAILED` A field or parameter is missing, unknown or of the wrong type or range: one message per field; `TENANT_REQUIRED` No X-Tenant-ID header; `TENANT_INVALID` X-Tenant-ID is not a tenant slug. */
      400: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'Content-Language': components['headers']['Content-Language'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorBody'];
        };
      };
      /** @description Not authenticated: `UNAUTHENTICATED` No token, or a malformed, expired or badly signed one, or not an active user of the tenant (WWW-Authenticate). */
      401: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'Content-Language': components['headers']['Content-Language'];
          'WWW-Authenticate': components['headers']['WWW-Authenticate'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorBody'];
        };
      };
      /** @description Forbidden: `TENANT_MISMATCH` The token was issued for another tenant than X-Tenant-ID; `FORBIDDEN` The user's roles do not give the permission the route needs; `TENANT_SUSPENDED` The tenant is suspended. */
      403: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'Content-Language': components['headers']['Content-Language'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorBody'];
        };
      };
      /** @description Not found: `NOT_FOUND` The feature is switched off for this tenant: the answer of a route that does not exist; `TENANT_NOT_FOUND` No tenant has this slug. */
      404: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'Content-Language': components['headers']['Content-Language'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorBody'];
        };
      };
      /** @description Too many requests: `RATE_LIMITED` Past RATE_LIMIT_MAX requests in the window (Retry-After). */
      429: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'Content-Language': components['headers']['Content-Language'];
          'Retry-After': components['headers']['Retry-After'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorBody'];
        };
      };
      /** @description Service unavailable: `57014` A statement ran longer than DB_STATEMENT_TIMEOUT_MS and was cancelled (Retry-After); `TENANT_PROVISIONING` The tenant is still being created (Retry-After); `TENANT_SCHEMA_OUTDATED` The tenant’s database is behind this version of the service: the operator migrates it (Retry-After); `DATABASE_UNAVAILABLE` The tenant database (or the catalog) does not answer (Retry-After); `REQUEST_TIMEOUT` Not answered within REQUEST_TIMEOUT_MS (Retry-After). */
      503: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'Content-Language': components['headers']['Content-Language'];
          'Retry-After': components['headers']['Retry-After'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorBody'];
        };
      };
    };
  };
  WebhooksController_list_v1: {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description OK */
      200: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['WebhookDto'][];
        };
      };
      /** @description Bad request: `TENANT_REQUIRED` No X-Tenant-ID header; `TENANT_INVALID` X-Tenant-ID is not a tenant slug. */
      400: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'Content-Language': components['headers']['Content-Language'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorBody'];
        };
      };
      /** @description Not authenticated: `UNAUTHENTICATED` No token, or a malformed, expired or badly signed one, or not an active user of the tenant (WWW-Authenticate). */
      401: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'Content-Language': components['headers']['Content-Language'];
          'WWW-Authenticate': components['headers']['WWW-Authenticate'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorBody'];
        };
      };
      /** @description Forbidden: `TENANT_MISMATCH` The token was issued for another tenant than X-Tenant-ID; `FORBIDDEN` The user's roles do not give the permission the route needs; `TENANT_SUSPENDED` The tenant is suspended. */
      403: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'Content-Language': components['headers']['Content-Language'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorBody'];
        };
      };
      /** @description Not found: `NOT_FOUND` The feature is switched off for this tenant: the answer of a route that does not exist; `TENANT_NOT_FOUND` No tenant has this slug. */
      404: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'Content-Language': components['headers']['Content-Language'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorBody'];
        };
      };
      /** @description Too many requests: `RATE_LIMITED` Past RATE_LIMIT_MAX requests in the window (Retry-After). */
      429: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'Content-Language': components['headers']['Content-Language'];
          'Retry-After': components['headers']['Retry-After'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorBody'];
        };
      };
      /** @description Service unavailable: `57014` A statement ran longer than DB_STATEMENT_TIMEOUT_MS and was cancelled (Retry-After); `TENANT_PROVISIONING` The tenant is still being created (Retry-After); `TENANT_SCHEMA_OUTDATED` The tenant’s database is behind this version of the service: the operator migrates it (Retry-After); `DATABASE_UNAVAILABLE` The tenant database (or the catalog) does not answer (Retry-After); `REQUEST_TIMEOUT` Not answered within REQUEST_TIMEOUT_MS (Retry-After). */
      503: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'Content-Language': components['headers']['Content-Language'];
          'Retry-After': components['headers']['Retry-After'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorBody'];
        };
      };
    };
  };
  WebhooksController_create_v1: {
    parameters: {
      query?: never;
      header?: {
        /** @description Makes a retry safe: the same key with the same request within IDEMPOTENCY_TTL_HOURS answers what the first answered (with Idempotent-Replayed: true) and does nothing again. 1 to 255 visible ASCII characters, one per intended change (a UUID). */
        'Idempotency-Key'?: string;
      };
      path?: never;
      cookie?: never;
    };
    requestBody: {
      content: {
        'application/json': components['schemas']['CreateWebhookBody'];
      };
    };
    responses: {
      /** @description The endpoint, on, with its secret */
      201: {
        headers: {
          /** @description The path of the new endpoint */
          Location?: string;
          'X-Request-Id': components['headers']['X-Request-Id'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['WebhookConSecretoDto'];
        };
      };
      /** @description Bad request: `IDEMPOTENCY_KEY_INVALID` Idempotency-Key is empty, longer than 255 characters, not visible ASCII, or sent twice; `VALIDATION_FAILED` A field or parameter is missing, unknown or of the wrong type or range: one message per field; `WEBHOOK_URL_NOT_ALLOWED` The URL is not https in production, or its host is (or resolves to) a private, loopback or link-local address; `WEBHOOK_UNKNOWN_EVENT` eventos names a type that does not exist; `TENANT_REQUIRED` No X-Tenant-ID header; `TENANT_INVALID` X-Tenant-ID is not a tenant slug; `INVALID_BODY` The JSON body is not an object (a string, a number, null, an array); `BAD_REQUEST` The body is not valid JSON. */
      400: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'Content-Language': components['headers']['Content-Language'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorBody'];
        };
      };
      /** @description Not authenticated: `UNAUTHENTICATED` No token, or a malformed, expired or badly signed one, or not an active user of the tenant (WWW-Authenticate). */
      401: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'Content-Language': components['headers']['Content-Language'];
          'WWW-Authenticate': components['headers']['WWW-Authenticate'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorBody'];
        };
      };
      /** @description Forbidden: `TENANT_MISMATCH` The token was issued for another tenant than X-Tenant-ID; `FORBIDDEN` The user's roles do not give the permission the route needs; `TENANT_SUSPENDED` The tenant is suspended. */
      403: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'Content-Language': components['headers']['Content-Language'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorBody'];
        };
      };
      /** @description Not found: `NOT_FOUND` The feature is switched off for this tenant: the answer of a route that does not exist; `TENANT_NOT_FOUND` No tenant has this slug. */
      404: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'Content-Language': components['headers']['Content-Language'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorBody'];
        };
      };
      /** @description Conflict: `IDEMPOTENCY_KEY_IN_USE` A request with this Idempotency-Key is still running: retry after Retry-After seconds. */
      409: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'Content-Language': components['headers']['Content-Language'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorBody'];
        };
      };
      /** @description Payload too large: `PAYLOAD_TOO_LARGE` The body is larger than BODY_LIMIT (a file: UPLOAD_MAX_BYTES). */
      413: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'Content-Language': components['headers']['Content-Language'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorBody'];
        };
      };
      /** @description Unsupported media type: `UNSUPPORTED_MEDIA_TYPE` The body came with another Content-Type than the route reads. */
      415: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'Content-Language': components['headers']['Content-Language'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorBody'];
        };
      };
      /** @description Unprocessable content: `IDEMPOTENCY_KEY_REUSED` This Idempotency-Key was used for another request (method, route, ids or body). */
      422: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'Content-Language': components['headers']['Content-Language'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorBody'];
        };
      };
      /** @description Too many requests: `RATE_LIMITED` Past RATE_LIMIT_MAX requests in the window (Retry-After). */
      429: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'Content-Language': components['headers']['Content-Language'];
          'Retry-After': components['headers']['Retry-After'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorBody'];
        };
      };
      /** @description Service unavailable: `57014` A statement ran longer than DB_STATEMENT_TIMEOUT_MS and was cancelled (Retry-After); `TENANT_PROVISIONING` The tenant is still being created (Retry-After); `TENANT_SCHEMA_OUTDATED` The tenant’s database is behind this version of the service: the operator migrates it (Retry-After); `DATABASE_UNAVAILABLE` The tenant database (or the catalog) does not answer (Retry-After); `REQUEST_TIMEOUT` Not answered within REQUEST_TIMEOUT_MS (Retry-After). */
      503: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'Content-Language': components['headers']['Content-Language'];
          'Retry-After': components['headers']['Retry-After'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorBody'];
        };
      };
    };
  };
  WebhooksController_get_v1: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        /** @description A positive integer id */
        id: number;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description OK */
      200: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['WebhookDto'];
        };
      };
      /** @description Bad request: `TENANT_REQUIRED` No X-Tenant-ID header; `TENANT_INVALID` X-Tenant-ID is not a tenant slug; `INVALID_ID` A path id is not a positive integer of its range. */
      400: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'Content-Language': components['headers']['Content-Language'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorBody'];
        };
      };
      /** @description Not authenticated: `UNAUTHENTICATED` No token, or a malformed, expired or badly signed one, or not an active user of the tenant (WWW-Authenticate). */
      401: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'Content-Language': components['headers']['Content-Language'];
          'WWW-Authenticate': components['headers']['WWW-Authenticate'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorBody'];
        };
      };
      /** @description Forbidden: `TENANT_MISMATCH` The token was issued for another tenant than X-Tenant-ID; `FORBIDDEN` The user's roles do not give the permission the route needs; `TENANT_SUSPENDED` The tenant is suspended. */
      403: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'Content-Language': components['headers']['Content-Language'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorBody'];
        };
      };
      /** @description Not found: `WEBHOOK_NOT_FOUND` No webhook has this id; `NOT_FOUND` The feature is switched off for this tenant: the answer of a route that does not exist; `TENANT_NOT_FOUND` No tenant has this slug. */
      404: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'Content-Language': components['headers']['Content-Language'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorBody'];
        };
      };
      /** @description Too many requests: `RATE_LIMITED` Past RATE_LIMIT_MAX requests in the window (Retry-After). */
      429: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'Content-Language': components['headers']['Content-Language'];
          'Retry-After': components['headers']['Retry-After'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorBody'];
        };
      };
      /** @description Service unavailable: `57014` A statement ran longer than DB_STATEMENT_TIMEOUT_MS and was cancelled (Retry-After); `TENANT_PROVISIONING` The tenant is still being created (Retry-After); `TENANT_SCHEMA_OUTDATED` The tenant’s database is behind this version of the service: the operator migrates it (Retry-After); `DATABASE_UNAVAILABLE` The tenant database (or the catalog) does not answer (Retry-After); `REQUEST_TIMEOUT` Not answered within REQUEST_TIMEOUT_MS (Retry-After). */
      503: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'Content-Language': components['headers']['Content-Language'];
          'Retry-After': components['headers']['Retry-After'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorBody'];
        };
      };
    };
  };
  WebhooksController_remove_v1: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        /** @description A positive integer id */
        id: number;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description Removed */
      204: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          [name: string]: unknown;
        };
        content?: never;
      };
      /** @description Bad request: `TENANT_REQUIRED` No X-Tenant-ID header; `TENANT_INVALID` X-Tenant-ID is not a tenant slug; `INVALID_ID` A path id is not a positive integer of its range. */
      400: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'Content-Language': components['headers']['Content-Language'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorBody'];
        };
      };
      /** @description Not authenticated: `UNAUTHENTICATED` No token, or a malformed, expired or badly signed one, or not an active user of the tenant (WWW-Authenticate). */
      401: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'Content-Language': components['headers']['Content-Language'];
          'WWW-Authenticate': components['headers']['WWW-Authenticate'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorBody'];
        };
      };
      /** @description Forbidden: `TENANT_MISMATCH` The token was issued for another tenant than X-Tenant-ID; `FORBIDDEN` The user's roles do not give the permission the route needs; `TENANT_SUSPENDED` The tenant is suspended. */
      403: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'Content-Language': components['headers']['Content-Language'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorBody'];
        };
      };
      /** @description Not found: `WEBHOOK_NOT_FOUND` No webhook has this id; `NOT_FOUND` The feature is switched off for this tenant: the answer of a route that does not exist; `TENANT_NOT_FOUND` No tenant has this slug. */
      404: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'Content-Language': components['headers']['Content-Language'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorBody'];
        };
      };
      /** @description Too many requests: `RATE_LIMITED` Past RATE_LIMIT_MAX requests in the window (Retry-After). */
      429: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'Content-Language': components['headers']['Content-Language'];
          'Retry-After': components['headers']['Retry-After'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorBody'];
        };
      };
      /** @description Service unavailable: `57014` A statement ran longer than DB_STATEMENT_TIMEOUT_MS and was cancelled (Retry-After); `TENANT_PROVISIONING` The tenant is still being created (Retry-After); `TENANT_SCHEMA_OUTDATED` The tenant’s database is behind this version of the service: the operator migrates it (Retry-After); `DATABASE_UNAVAILABLE` The tenant database (or the catalog) does not answer (Retry-After); `REQUEST_TIMEOUT` Not answered within REQUEST_TIMEOUT_MS (Retry-After). */
      503: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'Content-Language': components['headers']['Content-Language'];
          'Retry-After': components['headers']['Retry-After'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorBody'];
        };
      };
    };
  };
  WebhooksController_update_v1: {
    parameters: {
      query?: never;
      header?: {
        /** @description Makes a retry safe: the same key with the same request within IDEMPOTENCY_TTL_HOURS answers what the first answered (with Idempotent-Replayed: true) and does nothing again. 1 to 255 visible ASCII characters, one per intended change (a UUID). */
        'Idempotency-Key'?: string;
      };
      path: {
        /** @description A positive integer id */
        id: number;
      };
      cookie?: never;
    };
    requestBody: {
      content: {
        'application/json': components['schemas']['UpdateWebhookBody'];
      };
    };
    responses: {
      /** @description OK */
      200: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['WebhookDto'];
        };
      };
      /** @description Bad request: `IDEMPOTENCY_KEY_INVALID` Idempotency-Key is empty, longer than 255 characters, not visible ASCII, or sent twice; `VALIDATION_FAILED` A field or parameter is missing, unknown or of the wrong type or range: one message per field; `EMPTY_CHANGE` Nothing to change; `WEBHOOK_URL_NOT_ALLOWED` The URL is not https in production, or its host is (or resolves to) a private, loopback or link-local address; `WEBHOOK_UNKNOWN_EVENT` eventos names a type that does not exist; `TENANT_REQUIRED` No X-Tenant-ID header; `TENANT_INVALID` X-Tenant-ID is not a tenant slug; `INVALID_BODY` The JSON body is not an object (a string, a number, null, an array); `BAD_REQUEST` The body is not valid JSON; `INVALID_ID` A path id is not a positive integer of its range. */
      400: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'Content-Language': components['headers']['Content-Language'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorBody'];
        };
      };
      /** @description Not authenticated: `UNAUTHENTICATED` No token, or a malformed, expired or badly signed one, or not an active user of the tenant (WWW-Authenticate). */
      401: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'Content-Language': components['headers']['Content-Language'];
          'WWW-Authenticate': components['headers']['WWW-Authenticate'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorBody'];
        };
      };
      /** @description Forbidden: `TENANT_MISMATCH` The token was issued for another tenant than X-Tenant-ID; `FORBIDDEN` The user's roles do not give the permission the route needs; `TENANT_SUSPENDED` The tenant is suspended. */
      403: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'Content-Language': components['headers']['Content-Language'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorBody'];
        };
      };
      /** @description Not found: `WEBHOOK_NOT_FOUND` No webhook has this id; `NOT_FOUND` The feature is switched off for this tenant: the answer of a route that does not exist; `TENANT_NOT_FOUND` No tenant has this slug. */
      404: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'Content-Language': components['headers']['Content-Language'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorBody'];
        };
      };
      /** @description Conflict: `IDEMPOTENCY_KEY_IN_USE` A request with this Idempotency-Key is still running: retry after Retry-After seconds. */
      409: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'Content-Language': components['headers']['Content-Language'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorBody'];
        };
      };
      /** @description Payload too large: `PAYLOAD_TOO_LARGE` The body is larger than BODY_LIMIT (a file: UPLOAD_MAX_BYTES). */
      413: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'Content-Language': components['headers']['Content-Language'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorBody'];
        };
      };
      /** @description Unsupported media type: `UNSUPPORTED_MEDIA_TYPE` The body came with another Content-Type than the route reads. */
      415: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'Content-Language': components['headers']['Content-Language'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorBody'];
        };
      };
      /** @description Unprocessable content: `IDEMPOTENCY_KEY_REUSED` This Idempotency-Key was used for another request (method, route, ids or body). */
      422: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'Content-Language': components['headers']['Content-Language'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorBody'];
        };
      };
      /** @description Too many requests: `RATE_LIMITED` Past RATE_LIMIT_MAX requests in the window (Retry-After). */
      429: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'Content-Language': components['headers']['Content-Language'];
          'Retry-After': components['headers']['Retry-After'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorBody'];
        };
      };
      /** @description Service unavailable: `57014` A statement ran longer than DB_STATEMENT_TIMEOUT_MS and was cancelled (Retry-After); `TENANT_PROVISIONING` The tenant is still being created (Retry-After); `TENANT_SCHEMA_OUTDATED` The tenant’s database is behind this version of the service: the operator migrates it (Retry-After); `DATABASE_UNAVAILABLE` The tenant database (or the catalog) does not answer (Retry-After); `REQUEST_TIMEOUT` Not answered within REQUEST_TIMEOUT_MS (Retry-After). */
      503: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'Content-Language': components['headers']['Content-Language'];
          'Retry-After': components['headers']['Retry-After'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorBody'];
        };
      };
    };
  };
  WebhooksController_rotate_v1: {
    parameters: {
      query?: never;
      header?: {
        /** @description Makes a retry safe: the same key with the same request within IDEMPOTENCY_TTL_HOURS answers what the first answered (with Idempotent-Replayed: true) and does nothing again. 1 to 255 visible ASCII characters, one per intended change (a UUID). */
        'Idempotency-Key'?: string;
      };
      path: {
        /** @description A positive integer id */
        id: number;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description The endpoint with its new secret */
      200: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['WebhookConSecretoDto'];
        };
      };
      /** @description Bad request: `IDEMPOTENCY_KEY_INVALID` Idempotency-Key is empty, longer than 255 characters, not visible ASCII, or sent twice; `TENANT_REQUIRED` No X-Tenant-ID header; `TENANT_INVALID` X-Tenant-ID is not a tenant slug; `INVALID_ID` A path id is not a positive integer of its range. */
      400: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'Content-Language': components['headers']['Content-Language'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorBody'];
        };
      };
      /** @description Not authenticated: `UNAUTHENTICATED` No token, or a malformed, expired or badly signed one, or not an active user of the tenant (WWW-Authenticate). */
      401: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'Content-Language': components['headers']['Content-Language'];
          'WWW-Authenticate': components['headers']['WWW-Authenticate'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorBody'];
        };
      };
      /** @description Forbidden: `TENANT_MISMATCH` The token was issued for another tenant than X-Tenant-ID; `FORBIDDEN` The user's roles do not give the permission the route needs; `TENANT_SUSPENDED` The tenant is suspended. */
      403: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'Content-Language': components['headers']['Content-Language'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorBody'];
        };
      };
      /** @description Not found: `WEBHOOK_NOT_FOUND` No webhook has this id; `NOT_FOUND` The feature is switched off for this tenant: the answer of a route that does not exist; `TENANT_NOT_FOUND` No tenant has this slug. */
      404: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'Content-Language': components['headers']['Content-Language'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorBody'];
        };
      };
      /** @description Conflict: `IDEMPOTENCY_KEY_IN_USE` A request with this Idempotency-Key is still running: retry after Retry-After seconds. */
      409: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'Content-Language': components['headers']['Content-Language'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorBody'];
        };
      };
      /** @description Unprocessable content: `IDEMPOTENCY_KEY_REUSED` This Idempotency-Key was used for another request (method, route, ids or body). */
      422: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'Content-Language': components['headers']['Content-Language'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorBody'];
        };
      };
      /** @description Too many requests: `RATE_LIMITED` Past RATE_LIMIT_MAX requests in the window (Retry-After). */
      429: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'Content-Language': components['headers']['Content-Language'];
          'Retry-After': components['headers']['Retry-After'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorBody'];
        };
      };
      /** @description Service unavailable: `57014` A statement ran longer than DB_STATEMENT_TIMEOUT_MS and was cancelled (Retry-After); `TENANT_PROVISIONING` The tenant is still being created (Retry-After); `TENANT_SCHEMA_OUTDATED` The tenant’s database is behind this version of the service: the operator migrates it (Retry-After); `DATABASE_UNAVAILABLE` The tenant database (or the catalog) does not answer (Retry-After); `REQUEST_TIMEOUT` Not answered within REQUEST_TIMEOUT_MS (Retry-After). */
      503: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'Content-Language': components['headers']['Content-Language'];
          'Retry-After': components['headers']['Retry-After'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorBody'];
        };
      };
    };
  };
  WebhooksController_test_v1: {
    parameters: {
      query?: never;
      header?: {
        /** @description Makes a retry safe: the same key with the same request within IDEMPOTENCY_TTL_HOURS answers what the first answered (with Idempotent-Replayed: true) and does nothing again. 1 to 255 visible ASCII characters, one per intended change (a UUID). */
        'Idempotency-Key'?: string;
      };
      path: {
        /** @description A positive integer id */
        id: number;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description The message, queued */
      202: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['EntregaDto'];
        };
      };
      /** @description Bad request: `IDEMPOTENCY_KEY_INVALID` Idempotency-Key is empty, longer than 255 characters, not visible ASCII, or sent twice; `TENANT_REQUIRED` No X-Tenant-ID header; `TENANT_INVALID` X-Tenant-ID is not a tenant slug; `INVALID_ID` A path id is not a positive integer of its range. */
      400: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'Content-Language': components['headers']['Content-Language'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorBody'];
        };
      };
      /** @description Not authenticated: `UNAUTHENTICATED` No token, or a malformed, expired or badly signed one, or not an active user of the tenant (WWW-Authenticate). */
      401: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'Content-Language': components['headers']['Content-Language'];
          'WWW-Authenticate': components['headers']['WWW-Authenticate'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorBody'];
        };
      };
      /** @description Forbidden: `TENANT_MISMATCH` The token was issued for another tenant than X-Tenant-ID; `FORBIDDEN` The user's roles do not give the permission the route needs; `TENANT_SUSPENDED` The tenant is suspended. */
      403: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'Content-Language': components['headers']['Content-Language'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorBody'];
        };
      };
      /** @description Not found: `WEBHOOK_NOT_FOUND` No webhook has this id; `NOT_FOUND` The feature is switched off for this tenant: the answer of a route that does not exist; `TENANT_NOT_FOUND` No tenant has this slug. */
      404: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'Content-Language': components['headers']['Content-Language'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorBody'];
        };
      };
      /** @description Conflict: `IDEMPOTENCY_KEY_IN_USE` A request with this Idempotency-Key is still running: retry after Retry-After seconds; `WEBHOOK_INACTIVE` The endpoint is switched off: nothing is sent to it. */
      409: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'Content-Language': components['headers']['Content-Language'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorBody'];
        };
      };
      /** @description Unprocessable content: `IDEMPOTENCY_KEY_REUSED` This Idempotency-Key was used for another request (method, route, ids or body). */
      422: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'Content-Language': components['headers']['Content-Language'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorBody'];
        };
      };
      /** @description Too many requests: `RATE_LIMITED` Past RATE_LIMIT_MAX requests in the window (Retry-After). */
      429: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'Content-Language': components['headers']['Content-Language'];
          'Retry-After': components['headers']['Retry-After'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorBody'];
        };
      };
      /** @description Service unavailable: `57014` A statement ran longer than DB_STATEMENT_TIMEOUT_MS and was cancelled (Retry-After); `TENANT_PROVISIONING` The tenant is still being created (Retry-After); `TENANT_SCHEMA_OUTDATED` The tenant’s database is behind this version of the service: the operator migrates it (Retry-After); `DATABASE_UNAVAILABLE` The tenant database (or the catalog) does not answer (Retry-After); `REQUEST_TIMEOUT` Not answered within REQUEST_TIMEOUT_MS (Retry-After). */
      503: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'Content-Language': components['headers']['Content-Language'];
          'Retry-After': components['headers']['Retry-After'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorBody'];
        };
      };
    };
  };
  WebhooksController_entregas_v1: {
    parameters: {
      query?: {
        /** @description Only deliveries in this estado */
        estado?: 'pendiente' | 'entregado' | 'fallido';
        /** @description Page size (above the maximum is 400, not cut) */
        limit?: number;
        /** @description Deliveries skipped before the page */
        offset?: number;
      };
      header?: never;
      path: {
        /** @description A positive integer id */
        id: number;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description OK */
      200: {
        headers: {
          /** @description Messages matching the filter, whatever the page */
          'X-Total-Count'?: number;
          'X-Request-Id': components['headers']['X-Request-Id'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['EntregaDto'][];
        };
      };
      /** @description Bad request: `VALIDATION_FAILED` A field or parameter is missing, unknown or of the wrong type or range: one message per field; `TENANT_REQUIRED` No X-Tenant-ID header; `TENANT_INVALID` X-Tenant-ID is not a tenant slug; `INVALID_ID` A path id is not a positive integer of its range. */
      400: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'Content-Language': components['headers']['Content-Language'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorBody'];
        };
      };
      /** @description Not authenticated: `UNAUTHENTICATED` No token, or a malformed, expired or badly signed one, or not an active user of the tenant (WWW-Authenticate). */
      401: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'Content-Language': components['headers']['Content-Language'];
          'WWW-Authenticate': components['headers']['WWW-Authenticate'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorBody'];
        };
      };
      /** @description Forbidden: `TENANT_MISMATCH` The token was issued for another tenant than X-Tenant-ID; `FORBIDDEN` The user's roles do not give the permission the route needs; `TENANT_SUSPENDED` The tenant is suspended. */
      403: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'Content-Language': components['headers']['Content-Language'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorBody'];
        };
      };
      /** @description Not found: `WEBHOOK_NOT_FOUND` No webhook has this id; `NOT_FOUND` The feature is switched off for this tenant: the answer of a route that does not exist; `TENANT_NOT_FOUND` No tenant has this slug. */
      404: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'Content-Language': components['headers']['Content-Language'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorBody'];
        };
      };
      /** @description Too many requests: `RATE_LIMITED` Past RATE_LIMIT_MAX requests in the window (Retry-After). */
      429: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'Content-Language': components['headers']['Content-Language'];
          'Retry-After': components['headers']['Retry-After'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorBody'];
        };
      };
      /** @description Service unavailable: `57014` A statement ran longer than DB_STATEMENT_TIMEOUT_MS and was cancelled (Retry-After); `TENANT_PROVISIONING` The tenant is still being created (Retry-After); `TENANT_SCHEMA_OUTDATED` The tenant’s database is behind this version of the service: the operator migrates it (Retry-After); `DATABASE_UNAVAILABLE` The tenant database (or the catalog) does not answer (Retry-After); `REQUEST_TIMEOUT` Not answered within REQUEST_TIMEOUT_MS (Retry-After). */
      503: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'Content-Language': components['headers']['Content-Language'];
          'Retry-After': components['headers']['Retry-After'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorBody'];
        };
      };
    };
  };
  WebhooksController_resend_v1: {
    parameters: {
      query?: never;
      header?: {
        /** @description Makes a retry safe: the same key with the same request within IDEMPOTENCY_TTL_HOURS answers what the first answered (with Idempotent-Replayed: true) and does nothing again. 1 to 255 visible ASCII characters, one per intended change (a UUID). */
        'Idempotency-Key'?: string;
      };
      path: {
        /** @description A positive integer id */
        id: number;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description The message, queued again */
      202: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['EntregaDto'];
        };
      };
      /** @description Bad request: `IDEMPOTENCY_KEY_INVALID` Idempotency-Key is empty, longer than 255 characters, not visible ASCII, or sent twice; `TENANT_REQUIRED` No X-Tenant-ID header; `TENANT_INVALID` X-Tenant-ID is not a tenant slug; `INVALID_ID` A path id is not a positive integer of its range. */
      400: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'Content-Language': components['headers']['Content-Language'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorBody'];
        };
      };
      /** @description Not authenticated: `UNAUTHENTICATED` No token, or a malformed, expired or badly signed one, or not an active user of the tenant (WWW-Authenticate). */
      401: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'Content-Language': components['headers']['Content-Language'];
          'WWW-Authenticate': components['headers']['WWW-Authenticate'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorBody'];
        };
      };
      /** @description Forbidden: `TENANT_MISMATCH` The token was issued for another tenant than X-Tenant-ID; `FORBIDDEN` The user's roles do not give the permission the route needs; `TENANT_SUSPENDED` The tenant is suspended. */
      403: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'Content-Language': components['headers']['Content-Language'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorBody'];
        };
      };
      /** @description Not found: `ENTREGA_NOT_FOUND` No delivery has this id; `NOT_FOUND` The feature is switched off for this tenant: the answer of a route that does not exist; `TENANT_NOT_FOUND` No tenant has this slug. */
      404: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'Content-Language': components['headers']['Content-Language'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorBody'];
        };
      };
      /** @description Conflict: `IDEMPOTENCY_KEY_IN_USE` A request with this Idempotency-Key is still running: retry after Retry-After seconds; `WEBHOOK_INACTIVE` The endpoint is switched off: nothing is sent to it. */
      409: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'Content-Language': components['headers']['Content-Language'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorBody'];
        };
      };
      /** @description Unprocessable content: `IDEMPOTENCY_KEY_REUSED` This Idempotency-Key was used for another request (method, route, ids or body). */
      422: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'Content-Language': components['headers']['Content-Language'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorBody'];
        };
      };
      /** @description Too many requests: `RATE_LIMITED` Past RATE_LIMIT_MAX requests in the window (Retry-After). */
      429: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'Content-Language': components['headers']['Content-Language'];
          'Retry-After': components['headers']['Retry-After'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorBody'];
        };
      };
      /** @description Service unavailable: `57014` A statement ran longer than DB_STATEMENT_TIMEOUT_MS and was cancelled (Retry-After); `TENANT_PROVISIONING` The tenant is still being created (Retry-After); `TENANT_SCHEMA_OUTDATED` The tenant’s database is behind this version of the service: the operator migrates it (Retry-After); `DATABASE_UNAVAILABLE` The tenant database (or the catalog) does not answer (Retry-After); `REQUEST_TIMEOUT` Not answered within REQUEST_TIMEOUT_MS (Retry-After). */
      503: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'Content-Language': components['headers']['Content-Language'];
          'Retry-After': components['headers']['Retry-After'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorBody'];
        };
      };
    };
  };
}
