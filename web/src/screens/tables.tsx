import { useEffect, useId, useMemo, useRef, useState } from 'preact/hooks';
import { ApiError, isAbort, ok, type Schemas } from '../api';
import { ErrorBanner, Notice } from '../components';
import { useSession } from '../session';
import {
  buildInsertBody,
  cellText,
  emptyDraft,
  fieldErrorsOf,
  htmlInputType,
  inputKind,
  insertableColumns,
  isRequired,
  numberStep,
  rowKey,
  usesTextarea,
  type Draft,
  type Row,
} from './tables-form';

type SchemaColumn = Schemas['ColumnDto'];
type TableSchema = Schemas['TableSchema'];
type Option = Schemas['OptionItem'];

const LIMITS = [10, 25, 50, 100];
const LAST_TABLE = 'comandas.tablas.ultima';

function rememberedTable(): string {
  try {
    return sessionStorage.getItem(LAST_TABLE) ?? '';
  } catch {
    return '';
  }
}

/**
 * Tablas (docs/generic-tables.md): the allowed tables, the newest rows of one, and a form built
 * from its schema that inserts a row; a constraint error is shown at its field.
 */
export function Tables() {
  const { api, can } = useSession();
  const [tables, setTables] = useState<string[] | null>(null);
  const [table, setTable] = useState('');
  const [limit, setLimit] = useState(25);
  const [schema, setSchema] = useState<TableSchema | null>(null);
  const [options, setOptions] = useState<Record<string, Option[] | undefined>>({});
  const [rows, setRows] = useState<Row[] | null>(null);
  const [loadError, setLoadError] = useState<unknown>(null);
  const [rowsError, setRowsError] = useState<unknown>(null);
  const [reload, setReload] = useState(0);
  const [saved, setSaved] = useState<{ table: string; row: Row } | null>(null);

  // the allowed tables, once
  useEffect(() => {
    const controller = new AbortController();
    ok(api.GET('/api/v1/tables', { signal: controller.signal }))
      .then((names) => {
        setTables(names);
        const last = rememberedTable();
        if (last && names.includes(last)) setTable(last);
      })
      .catch((err) => !isAbort(err) && setLoadError(err));
    return () => controller.abort();
  }, [api]);

  // the chosen table's schema and the options of its foreign keys
  useEffect(() => {
    setSchema(null);
    setOptions({});
    setSaved(null);
    if (!table) return;
    try {
      sessionStorage.setItem(LAST_TABLE, table);
    } catch {
      /* private mode: not remembered */
    }
    const controller = new AbortController();
    const signal = controller.signal;
    setLoadError(null);
    ok(api.GET('/api/v1/schema/{table}', { params: { path: { table } }, signal }))
      .then((s) => {
        setSchema(s);
        const foreign = insertableColumns(s).filter((c) => c.foreign);
        for (const column of foreign) {
          ok(
            api.GET('/api/v1/options/{table}/{column}', {
              params: { path: { table, column: column.name } },
              signal,
            }),
          )
            .then((list) => setOptions((o) => ({ ...o, [column.name]: list })))
            // without options the field stays a plain input
            .catch((err) => !isAbort(err) && setOptions((o) => ({ ...o, [column.name]: [] })));
        }
      })
      .catch((err) => !isAbort(err) && setLoadError(err));
    return () => controller.abort();
  }, [api, table]);

  // its rows, newest first
  useEffect(() => {
    setRows(null);
    if (!table) return;
    const controller = new AbortController();
    setRowsError(null);
    ok(
      api.GET('/api/v1/table/{table}', {
        params: { path: { table }, query: { limit } },
        signal: controller.signal,
      }),
    )
      .then(setRows)
      .catch((err) => !isAbort(err) && setRowsError(err));
    return () => controller.abort();
  }, [api, table, limit, reload]);

  if (!can('tables:access')) {
    return (
      <section class="panel">
        <h2 id="tablas-titulo">Tablas</h2>
        <Notice>Su rol no tiene acceso a las tablas (permiso tables:access).</Notice>
      </section>
    );
  }

  const columns: SchemaColumn[] = schema?.columns ?? [];
  const shown = columns.length > 0 ? columns.map((c) => c.name) : Object.keys(rows?.[0] ?? {});

  return (
    <div class="grid">
      <section class="panel">
        <h2 id="tablas-titulo">Tablas</h2>
        <div class="toolbar">
          <label>
            Tabla
            <select
              aria-label="Tabla"
              value={table}
              disabled={!tables}
              onChange={(e) => setTable(e.currentTarget.value)}
            >
              <option value="">{tables ? '— elija una —' : 'Cargando…'}</option>
              {(tables ?? []).map((name) => (
                <option key={name} value={name}>
                  {name}
                </option>
              ))}
            </select>
          </label>
          <label>
            Filas
            <select
              aria-label="Filas"
              value={String(limit)}
              onChange={(e) => setLimit(Number(e.currentTarget.value))}
            >
              {LIMITS.map((n) => (
                <option key={n} value={String(n)}>
                  {n}
                </option>
              ))}
            </select>
          </label>
          <button
            type="button"
            class="secondary"
            disabled={!table}
            onClick={() => setReload((n) => n + 1)}
          >
            Actualizar
          </button>
        </div>
        <ErrorBanner error={loadError} onClose={() => setLoadError(null)} />
        {!table && tables && <p class="muted">Elija una tabla para ver sus filas.</p>}
      </section>

      {table && (
        <section class="panel">
          <h3 id="tablas-filas">Filas de {table}</h3>
          <ErrorBanner error={rowsError} />
          {rows === null && !rowsError && <p class="muted">Cargando…</p>}
          {rows && (
            <RowsList
              rows={rows}
              names={shown}
              columns={columns}
              options={options}
              limit={limit}
              table={table}
            />
          )}
        </section>
      )}

      {table && schema && schema.table === table && (
        <section class="panel">
          <h3 id="tablas-nueva">Nueva fila en {table}</h3>
          {saved && saved.table === table && (
            <Notice>
              <span>
                Fila guardada en {saved.table}:{' '}
                {Object.entries(saved.row)
                  .map(([name, value]) => `${name} = ${cellText(value)}`)
                  .join(' · ')}
              </span>
            </Notice>
          )}
          {schema.read_only ? (
            <ReadOnlyNote table={table} schema={schema} />
          ) : insertableColumns(schema).length === 0 ? (
            <p class="muted">
              {table} no tiene columnas que se puedan escribir aquí: su clave la forman otras tablas
              y se llena con las rutas del negocio.
            </p>
          ) : (
            <InsertForm
              key={table}
              table={table}
              schema={schema}
              options={options}
              onSaved={(row) => {
                setSaved({ table, row });
                setReload((n) => n + 1);
              }}
            />
          )}
        </section>
      )}
    </div>
  );
}

/** Why the table takes no rows here, and where its module writes it (GET /schema: owner). */
function ReadOnlyNote({ table, schema }: { table: string; schema: TableSchema }) {
  if (!schema.owner) return <p class="muted">{table} es una vista: solo se puede leer.</p>;
  return (
    <div class="muted" role="note" aria-label="Solo lectura">
      <p>
        {table} solo se puede leer aquí: la escribe el módulo {schema.owner.module}, que cuida sus
        reglas ({schema.read_only_reason}).
      </p>
      <p>Rutas que la escriben: {schema.owner.routes.join(' · ')}</p>
    </div>
  );
}

function RowsList({
  rows,
  names,
  columns,
  options,
  limit,
  table,
}: {
  rows: Row[];
  names: string[];
  columns: SchemaColumn[];
  options: Record<string, Option[] | undefined>;
  limit: number;
  table: string;
}) {
  if (rows.length === 0) return <p class="muted">{table} no tiene filas.</p>;
  const labelOf = (name: string, value: unknown): string => {
    const text = cellText(value);
    if (value === null || value === undefined) return text;
    const option = options[name]?.find((o) => String(o.id) === text);
    return option?.label ? `${option.label} (${text})` : text;
  };
  // numbers right-aligned under a right-aligned header; a key shown by its label reads as text
  const byName = new Map(columns.map((c) => [c.name, c]));
  const numeric = (name: string): boolean => {
    const column = byName.get(name);
    if (!column) return typeof rows[0]?.[name] === 'number';
    const kind = inputKind(column);
    return (kind === 'integer' || kind === 'decimal') && !options[name]?.length;
  };
  return (
    <>
      <p class="muted">
        {rows.length} {rows.length === 1 ? 'fila' : 'filas'}, las más recientes primero
        {rows.length >= limit && ' (puede haber más: aumente el número de filas)'}.
      </p>
      <div class="table-scroll">
        <table class="table">
          <thead>
            <tr>
              {names.map((name) => (
                <th key={name} scope="col" class={numeric(name) ? 'num' : undefined}>
                  {name}
                </th>
              ))}
            </tr>
          </thead>
          <tbody>
            {rows.map((row, index) => (
              <tr key={rowKey(row, columns, index)}>
                {names.map((name) => {
                  const text = labelOf(name, row[name]);
                  const long = text.length > 80;
                  return (
                    <td
                      key={name}
                      class={numeric(name) ? 'num' : undefined}
                      title={long ? text : undefined}
                    >
                      {row[name] === null || row[name] === undefined ? (
                        <span class="muted">—</span>
                      ) : long ? (
                        `${text.slice(0, 80)}…`
                      ) : (
                        text
                      )}
                    </td>
                  );
                })}
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    </>
  );
}

function InsertForm({
  table,
  schema,
  options,
  onSaved,
}: {
  table: string;
  schema: TableSchema;
  options: Record<string, Option[] | undefined>;
  onSaved: (row: Row) => void;
}) {
  const { api, tenant } = useSession();
  const uid = useId();
  const columns = useMemo(() => insertableColumns(schema), [schema]);
  const [draft, setDraft] = useState<Draft>(() => emptyDraft(columns));
  const [touched, setTouched] = useState<Set<string>>(new Set());
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [error, setError] = useState<unknown>(null);
  const [busy, setBusy] = useState(false);
  const [focus, setFocus] = useState<string | null>(null);
  const formRef = useRef<HTMLFormElement>(null);
  const idOf = (name: string) => `${uid}-${name}`;

  // after a failed save, the first field with an error gets the focus
  useEffect(() => {
    if (!focus) return;
    document.getElementById(idOf(focus))?.focus();
    setFocus(null);
  }, [focus]);

  const change = (name: string, value: string | boolean) => {
    setDraft((d) => ({ ...d, [name]: value }));
    setTouched((t) => new Set(t).add(name));
    if (errors[name]) {
      setErrors((e) => {
        const next = { ...e };
        delete next[name];
        return next;
      });
    }
  };

  const firstOf = (names: Record<string, string>) =>
    columns.find((c) => names[c.name] !== undefined)?.name ?? null;

  const submit = async (e: Event) => {
    e.preventDefault();
    if (busy) return;
    setError(null);
    const { body, errors: local } = buildInsertBody(
      columns,
      draft,
      touched,
      tenant.timeZone,
      options,
    );
    if (Object.keys(local).length > 0) {
      setErrors(local);
      setFocus(firstOf(local));
      return;
    }
    setErrors({});
    setBusy(true);
    try {
      const answer = await ok(
        api.POST('/api/v1/table/{table}', { params: { path: { table } }, body }),
      );
      setDraft(emptyDraft(columns));
      setTouched(new Set());
      onSaved(answer.inserted);
    } catch (err) {
      const at = err instanceof ApiError ? fieldErrorsOf(err, table, columns) : {};
      // the fields it is about, and the service's message with its code in the banner
      setError(err);
      if (Object.keys(at).length > 0) {
        setErrors(at);
        setFocus(firstOf(at));
      }
    } finally {
      setBusy(false);
    }
  };

  return (
    <form ref={formRef} aria-label="Nueva fila" onSubmit={(e) => void submit(e)} noValidate>
      <p class="muted">
        Solo se envían los campos que complete; los demás toman su valor por defecto.{' '}
        <span aria-hidden="true">*</span> obligatorio.
      </p>
      <div class="form-grid wide-fields">
        {columns.map((column) => (
          <Field
            key={column.name}
            id={idOf(column.name)}
            column={column}
            value={draft[column.name]}
            options={column.foreign ? options[column.name] : undefined}
            error={errors[column.name]}
            onChange={(value) => change(column.name, value)}
          />
        ))}
      </div>
      <ErrorBanner error={error} onClose={() => setError(null)} />
      <div class="toolbar">
        <button type="submit" disabled={busy}>
          {busy ? 'Guardando…' : 'Guardar'}
        </button>
        <button
          type="button"
          class="secondary"
          disabled={busy}
          onClick={() => {
            setDraft(emptyDraft(columns));
            setTouched(new Set());
            setErrors({});
            setError(null);
          }}
        >
          Limpiar
        </button>
      </div>
    </form>
  );
}

function Field({
  id,
  column,
  value,
  options,
  error,
  onChange,
}: {
  id: string;
  column: SchemaColumn;
  value: string | boolean | undefined;
  options: Option[] | undefined;
  error: string | undefined;
  onChange: (value: string | boolean) => void;
}) {
  const kind = inputKind(column);
  const required = isRequired(column);
  const hintId = `${id}-hint`;
  const errorId = `${id}-error`;
  const describedBy = error ? `${errorId} ${hintId}` : hintId;
  const invalid = error ? 'true' : undefined;
  const text = typeof value === 'string' ? value : '';
  const hint = [
    column.type,
    column.foreign && `→ ${column.foreign.table}`,
    column.default !== null && `por defecto ${column.default}`,
    required && 'obligatorio',
    column.foreign && options === undefined && 'cargando opciones…',
    column.foreign && options?.length === 0 && 'sin opciones: escriba el valor',
  ]
    .filter(Boolean)
    .join(' · ');

  let control;
  if (kind === 'boolean') {
    control = (
      <input
        id={id}
        type="checkbox"
        checked={value === true}
        aria-invalid={invalid}
        aria-describedby={describedBy}
        onChange={(e) => onChange(e.currentTarget.checked)}
      />
    );
  } else if (column.foreign && options && options.length > 0) {
    control = (
      <select
        id={id}
        value={text}
        aria-invalid={invalid}
        aria-required={required ? 'true' : undefined}
        aria-describedby={describedBy}
        onChange={(e) => onChange(e.currentTarget.value)}
      >
        <option value="">— sin valor —</option>
        {options.map((option) => (
          <option key={String(option.id)} value={String(option.id)}>
            {option.label ?? String(option.id)}
          </option>
        ))}
      </select>
    );
  } else if (usesTextarea(kind)) {
    control = (
      <textarea
        id={id}
        rows={kind === 'json' ? 4 : 2}
        value={text}
        maxLength={column.maxLength ?? undefined}
        placeholder={kind === 'json' ? '{"clave": "valor"}' : undefined}
        aria-invalid={invalid}
        aria-required={required ? 'true' : undefined}
        aria-describedby={describedBy}
        onInput={(e) => onChange(e.currentTarget.value)}
      />
    );
  } else {
    const type = htmlInputType(kind);
    control = (
      <input
        id={id}
        // number, date, time or datetime-local: Preact's types want one literal per element
        // eslint-disable-next-line @typescript-eslint/no-unnecessary-type-assertion
        type={type as 'text'}
        value={text}
        step={
          type === 'number'
            ? numberStep(column)
            : kind === 'time' || kind === 'timestamp' || kind === 'timestamptz'
              ? '1'
              : undefined
        }
        inputMode={kind === 'integer' ? 'numeric' : kind === 'decimal' ? 'decimal' : undefined}
        maxLength={column.maxLength ?? undefined}
        aria-invalid={invalid}
        aria-required={required ? 'true' : undefined}
        aria-describedby={describedBy}
        onInput={(e) => onChange(e.currentTarget.value)}
      />
    );
  }

  return (
    <div class="field">
      <div class="field-label">
        <label for={id}>{column.name}</label>
        {required && (
          <span class="required" aria-hidden="true" title="obligatorio">
            *
          </span>
        )}
      </div>
      {control}
      <span id={hintId} class="muted">
        {hint}
      </span>
      {error && (
        <span id={errorId} class="field-error">
          {error}
        </span>
      )}
    </div>
  );
}
