import { useEffect, useState } from 'preact/hooks';
import { answer, isAbort, ok } from '../api';
import { ErrorBanner, Notice, Pager } from '../components';
import { plural, soles, when } from '../format';
import { useSession } from '../session';
import {
  cantidadLabel,
  cantidadSigned,
  costoUnitario,
  ESTADOS_CONTEO,
  estadoConteoLabel,
  mensajeError,
  type Conteo,
  type ConteoResumen,
  type EstadoConteo,
  type Saldo,
} from './inventario-rules';
import { ConfirmConteo, ConteoForm } from './inventario-conteo-form';

/** Count sheets per page of the list. */
const CONTEOS_PAGE = 8;

/** The count sheets, the one shown with its lines, and the buttons its `acciones` lists. */
export function Conteos({
  saldos,
  round,
  onApplied,
}: {
  saldos: Saldo[];
  round: number;
  /** A count was applied: the balances changed. */
  onApplied: () => void;
}) {
  const { api, can, tenant } = useSession();
  const [estado, setEstado] = useState<EstadoConteo | ''>('');
  const [offset, setOffset] = useState(0);
  const [list, setList] = useState<{
    items: ConteoResumen[];
    total: number;
    offset: number;
  } | null>(null);
  const [selected, setSelected] = useState<number | null>(null);
  const [conteo, setConteo] = useState<Conteo | null>(null);
  const [error, setError] = useState<unknown>(null);
  const [notice, setNotice] = useState<string | null>(null);
  const [open, setOpen] = useState<'nuevo' | 'editar' | 'aplicar' | 'descartar' | null>(null);
  const [again, setAgain] = useState(0);

  useEffect(() => {
    const controller = new AbortController();
    answer(
      api.GET('/api/v1/inventario/conteos', {
        params: { query: { estado: estado || undefined, limit: CONTEOS_PAGE, offset } },
        signal: controller.signal,
      }),
    )
      .then(({ data, response }) => {
        setList({
          items: data,
          total: Number(response.headers.get('X-Total-Count') ?? data.length),
          offset,
        });
        // the latest draft (or the latest sheet) when none is shown yet
        setSelected(
          (current) =>
            current ??
            data.find((c) => c.estado === 'borrador')?.id_conteo ??
            data[0]?.id_conteo ??
            null,
        );
      })
      .catch((err) => !isAbort(err) && setError(err));
    return () => controller.abort();
  }, [api, estado, offset, round, again]);

  useEffect(() => {
    if (selected === null) return undefined;
    const controller = new AbortController();
    ok(
      api.GET('/api/v1/inventario/conteos/{id}', {
        params: { path: { id: selected } },
        signal: controller.signal,
      }),
    )
      .then(setConteo)
      .catch((err) => !isAbort(err) && setError(err));
    return () => controller.abort();
  }, [api, selected, round, again]);

  /** After a write: the sheet as the answer has it, the list read again, the user told. */
  const done = (text: string, changed: Conteo) => {
    setOpen(null);
    setError(null);
    setNotice(text);
    setSelected(changed.id_conteo);
    setConteo(changed);
    setAgain((n) => n + 1);
  };

  const shown = conteo && conteo.id_conteo === selected ? conteo : null;

  return (
    <div class="conteos">
      <section class="panel" aria-labelledby="conteos-titulo">
        <div class="inv-section-head">
          <h3 id="conteos-titulo">Conteos</h3>
          <label class="inline">
            <span>Estado</span>
            <select
              value={estado}
              onChange={(e) => {
                setOffset(0);
                setEstado(e.currentTarget.value as EstadoConteo | '');
              }}
            >
              <option value="">Todos</option>
              {ESTADOS_CONTEO.map((e) => (
                <option key={e.estado} value={e.estado}>
                  {e.plural}
                </option>
              ))}
            </select>
          </label>
          {can('inventario:write') && (
            <button type="button" onClick={() => setOpen('nuevo')}>
              Nuevo conteo
            </button>
          )}
        </div>
        {notice && <Notice>{notice}</Notice>}
        <ErrorBanner error={mensajeError(error, tenant.timeZone)} onClose={() => setError(null)} />
        {list === null && !error && <p class="muted">Cargando…</p>}
        {list && list.items.length === 0 && (
          <p class="muted">
            {estado
              ? 'Ningún conteo en este estado.'
              : 'Ningún conteo todavía. Un conteo compara lo que hay en el almacén con el libro y ajusta la diferencia.'}
          </p>
        )}
        {list && list.items.length > 0 && (
          <>
            <table class="table conteos-list" aria-label="Lista de conteos">
              <colgroup>
                <col class="c-num" />
                <col class="c-corte" />
                <col class="c-estado" />
                <col class="c-lineas" />
                <col />
                <col class="c-quien" />
              </colgroup>
              <thead>
                <tr>
                  <th scope="col">Conteo</th>
                  <th scope="col">Corte</th>
                  <th scope="col">Estado</th>
                  <th scope="col" class="num">
                    Materiales
                  </th>
                  <th scope="col">Observación</th>
                  <th scope="col">Creado por</th>
                </tr>
              </thead>
              <tbody>
                {list.items.map((c) => (
                  <tr key={c.id_conteo} class={c.id_conteo === selected ? 'chosen' : undefined}>
                    <td>
                      <button
                        type="button"
                        class="link"
                        aria-pressed={c.id_conteo === selected}
                        aria-label={`Ver el conteo N° ${c.id_conteo}`}
                        onClick={() => setSelected(c.id_conteo)}
                      >
                        N° {c.id_conteo}
                      </button>
                    </td>
                    <td class="nowrap">{when(c.fec_corte)}</td>
                    <td>
                      <span class={`pill ${c.estado}`}>{estadoConteoLabel(c.estado)}</span>
                    </td>
                    <td class="num">{c.total_lineas}</td>
                    <td class="ellipsis" title={c.observacion ?? undefined}>
                      {c.observacion ?? '—'}
                    </td>
                    <td class="ellipsis" title={c.creado_por ?? undefined}>
                      {c.creado_por ?? '—'}
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
            {list.total > CONTEOS_PAGE && (
              <Pager
                offset={list.offset}
                size={CONTEOS_PAGE}
                total={list.total}
                onOffset={setOffset}
              />
            )}
          </>
        )}
      </section>

      {shown && (
        <ConteoSheet
          conteo={shown}
          onEdit={() => setOpen('editar')}
          onApply={() => setOpen('aplicar')}
          onDiscard={() => setOpen('descartar')}
        />
      )}

      {open === 'nuevo' && (
        <ConteoForm
          saldos={saldos}
          onClose={() => setOpen(null)}
          onSaved={(c) =>
            done(`Borrador N° ${c.id_conteo} creado: revise las diferencias antes de aplicarlo.`, c)
          }
        />
      )}
      {open === 'editar' && shown && (
        <ConteoForm
          saldos={saldos}
          conteo={shown}
          onClose={() => setOpen(null)}
          onSaved={(c) => done(`Conteo N° ${c.id_conteo} modificado.`, c)}
          onRefused={(err) => {
            setOpen(null);
            setError(err);
            setAgain((n) => n + 1);
          }}
        />
      )}
      {open === 'aplicar' && shown && (
        <ConfirmConteo
          conteo={shown}
          accion="aplicar"
          onClose={() => setOpen(null)}
          onDone={(c) => {
            done(
              `Conteo N° ${c.id_conteo} aplicado: los saldos contados quedan como se contaron al ${when(c.fec_corte)}.`,
              c,
            );
            onApplied();
          }}
          onRefused={(err) => {
            setOpen(null);
            setError(err);
            setAgain((n) => n + 1);
          }}
        />
      )}
      {open === 'descartar' && shown && (
        <ConfirmConteo
          conteo={shown}
          accion="descartar"
          onClose={() => setOpen(null)}
          onDone={(c) => done(`Conteo N° ${c.id_conteo} descartado: no se registró nada.`, c)}
          onRefused={(err) => {
            setOpen(null);
            setError(err);
            setAgain((n) => n + 1);
          }}
        />
      )}
    </div>
  );
}

/** A count sheet: per line what was counted, what the book holds at the cut-off, the difference. */
function ConteoSheet({
  conteo,
  onEdit,
  onApply,
  onDiscard,
}: {
  conteo: Conteo;
  onEdit: () => void;
  onApply: () => void;
  onDiscard: () => void;
}) {
  const title = `Conteo N° ${conteo.id_conteo}`;
  const borrador = conteo.estado === 'borrador';
  return (
    <section class="panel conteo-sheet" aria-label={title}>
      <header class="sheet-head">
        <div>
          <h3>
            {title} <span class={`pill ${conteo.estado}`}>{estadoConteoLabel(conteo.estado)}</span>
          </h3>
          <p class="meta">
            Corte {when(conteo.fec_corte)}
            {conteo.creado_por && ` · creado por ${conteo.creado_por}`}
            {conteo.fec_aplicacion &&
              ` · aplicado ${when(conteo.fec_aplicacion)}${conteo.aplicado_por ? ` por ${conteo.aplicado_por}` : ''}`}
          </p>
          {conteo.observacion && <p class="observacion">{conteo.observacion}</p>}
        </div>
        {conteo.acciones.length > 0 && (
          <div class="actions sheet-actions">
            {conteo.acciones.includes('editar') && (
              <button type="button" class="secondary" onClick={onEdit}>
                Editar
              </button>
            )}
            {conteo.acciones.includes('descartar') && (
              <button type="button" class="secondary" onClick={onDiscard}>
                Descartar
              </button>
            )}
            {conteo.acciones.includes('aplicar') && (
              <button type="button" onClick={onApply}>
                Aplicar conteo
              </button>
            )}
          </div>
        )}
      </header>
      {borrador && (
        <p class="hint">
          Borrador: «Sistema» es lo que el libro tiene al corte, al momento; nada se registra hasta
          aplicarlo.
        </p>
      )}
      <table class="table conteo-lineas" aria-label="Líneas del conteo">
        <colgroup>
          <col />
          <col class="c-cantidad" />
          <col class="c-cantidad" />
          <col class="c-cantidad" />
          <col class="c-costo" />
          <col class="c-valor" />
        </colgroup>
        <thead>
          <tr>
            <th scope="col">Material</th>
            <th scope="col" class="num">
              Contado
            </th>
            <th scope="col" class="num">
              Sistema
            </th>
            <th scope="col" class="num">
              Diferencia
            </th>
            <th scope="col" class="num">
              Costo prom.
            </th>
            <th scope="col" class="num">
              Valor dif.
            </th>
          </tr>
        </thead>
        <tbody>
          {conteo.lineas.map((l) => (
            <tr key={l.id_mat_prima} aria-label={l.nombre}>
              <th scope="row">{l.nombre}</th>
              <td class="num">{cantidadLabel(l.contado, l.unidad)}</td>
              <td class="num">{cantidadLabel(l.sistema, l.unidad)}</td>
              <td class={diffClass(l.diferencia)}>{cantidadSigned(l.diferencia, l.unidad)}</td>
              <td class="num">{costoUnitario(l.costo_promedio)}</td>
              <td class={diffClass(l.valor_diferencia)}>{soles(l.valor_diferencia)}</td>
            </tr>
          ))}
        </tbody>
        <tfoot>
          <tr>
            <th scope="row" colSpan={5}>
              {borrador ? 'Diferencias al aplicar' : 'Diferencias'} (
              {plural(conteo.total_lineas, 'material', 'materiales')})
            </th>
            <td class={diffClass(conteo.valor_diferencias)} data-testid="valor-diferencias">
              {soles(conteo.valor_diferencias)}
            </td>
          </tr>
        </tfoot>
      </table>
    </section>
  );
}

function diffClass(value: number): string {
  return value === 0 ? 'num' : value < 0 ? 'num falta' : 'num sobra';
}
