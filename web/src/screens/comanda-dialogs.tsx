import { useState } from 'preact/hooks';
import type { ComandaDetail, ComandaSummary, Mesa, Mozo, Producto } from '../api';
import { Dialog } from '../components';
import { cantidad, soles } from '../format';

/** Lower case without accents: "cevi" finds "Ceviche clásico", "clasico" too. */
const fold = (s: string) =>
  s
    .normalize('NFD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase();

export function ProductPicker({
  productos,
  busy,
  onPick,
}: {
  productos: Producto[];
  busy: boolean;
  onPick: (p: Producto, cantidad: number, nota: string) => void;
}) {
  const [q, setQ] = useState('');
  const [qty, setQty] = useState(1);
  const [nota, setNota] = useState('');
  const shown = productos
    .filter((p) => p.activo && fold(p.nombre).includes(fold(q.trim())))
    .slice(0, 50);
  return (
    <div class="picker">
      <label>
        Buscar producto
        <input
          type="search"
          value={q}
          autoFocus
          onInput={(e) => setQ(e.currentTarget.value)}
          placeholder="ceviche, chicha…"
        />
      </label>
      <div class="picker-options">
        <label>
          Cantidad
          <input
            type="number"
            min={1}
            max={100}
            value={qty}
            onInput={(e) => setQty(Math.max(1, Number(e.currentTarget.value) || 1))}
          />
        </label>
        <label>
          Nota
          <input
            value={nota}
            onInput={(e) => setNota(e.currentTarget.value)}
            placeholder="sin ají"
          />
        </label>
      </div>
      <ul aria-label="Productos">
        {shown.map((p) => (
          <li key={p.id_producto}>
            <button type="button" disabled={busy} onClick={() => onPick(p, qty, nota.trim())}>
              <span class="name">
                {p.nombre}
                {p.categoria && <span class="muted small"> · {p.categoria}</span>}
              </span>
              <span>{soles(p.precio)}</span>
            </button>
          </li>
        ))}
        {shown.length === 0 && <li class="muted empty">Ningún producto coincide.</li>}
      </ul>
    </div>
  );
}

/** The choices of a table: take-away, then the tables in use (and `current`, even retired). */
export function MesaOptions({ mesas, current }: { mesas: Mesa[]; current?: number | null }) {
  return (
    <>
      <option value="">Para llevar</option>
      {mesas
        .filter((m) => m.activo || m.id_mesa === current)
        .map((m) => (
          <option key={m.id_mesa} value={m.id_mesa}>
            Mesa {m.numero}
          </option>
        ))}
    </>
  );
}

export function ReasonDialog({
  title,
  confirm,
  required = false,
  busy,
  onClose,
  onConfirm,
}: {
  title: string;
  confirm: string;
  required?: boolean;
  busy: boolean;
  onClose: () => void;
  onConfirm: (motivo: string) => void;
}) {
  const [motivo, setMotivo] = useState('');
  return (
    <Dialog title={title} onClose={onClose}>
      <form
        class="grid"
        onSubmit={(e) => {
          e.preventDefault();
          onConfirm(motivo.trim());
        }}
      >
        <label>
          Motivo{required ? '' : ' (opcional)'}
          <input
            name="motivo"
            value={motivo}
            required={required}
            maxLength={500}
            autoFocus
            onInput={(e) => setMotivo(e.currentTarget.value)}
          />
        </label>
        <div class="actions">
          <button type="submit" class="danger" disabled={busy || (required && !motivo.trim())}>
            {confirm}
          </button>
          <button type="button" class="secondary" onClick={onClose}>
            Cancelar
          </button>
        </div>
      </form>
    </Dialog>
  );
}

/** The waiter and the note of an open comanda: only what changed is sent. */
export function EditDialog({
  detail,
  mozos,
  busy,
  onClose,
  onSave,
}: {
  detail: ComandaDetail;
  mozos: Mozo[];
  busy: boolean;
  onClose: () => void;
  onSave: (body: { id_usuario?: number | null; observacion?: string | null }) => void;
}) {
  const [mozo, setMozo] = useState(String(detail.id_usuario ?? ''));
  const [observacion, setObservacion] = useState(detail.observacion ?? '');
  const choices = mozos.filter((m) => m.activo || m.id_usuario === detail.id_usuario);
  return (
    <Dialog title="Editar comanda" onClose={onClose}>
      <form
        class="grid"
        onSubmit={(e) => {
          e.preventDefault();
          const id_usuario = mozo === '' ? null : Number(mozo);
          const nota = observacion.trim() === '' ? null : observacion.trim();
          onSave({
            ...(id_usuario !== detail.id_usuario ? { id_usuario } : {}),
            ...(nota !== detail.observacion ? { observacion: nota } : {}),
          });
        }}
      >
        <label>
          Mozo
          <select value={mozo} onChange={(e) => setMozo(e.currentTarget.value)}>
            <option value="">Sin mozo</option>
            {choices.map((m) => (
              <option key={m.id_usuario} value={m.id_usuario}>
                {m.nombre}
              </option>
            ))}
          </select>
        </label>
        <label>
          Observación
          <input
            value={observacion}
            maxLength={500}
            placeholder="cumpleaños, paga con tarjeta…"
            onInput={(e) => setObservacion(e.currentTarget.value)}
          />
        </label>
        <div class="actions">
          <button type="submit" disabled={busy}>
            Guardar
          </button>
          <button type="button" class="secondary" onClick={onClose}>
            Cancelar
          </button>
        </div>
      </form>
    </Dialog>
  );
}

export function SplitDialog({
  detail,
  mesas,
  busy,
  onClose,
  onSplit,
}: {
  detail: ComandaDetail;
  mesas: Mesa[];
  busy: boolean;
  onClose: () => void;
  onSplit: (body: {
    lineas: { id_item: number; cantidad: number }[];
    id_mesa?: number | null;
  }) => void;
}) {
  const [picked, setPicked] = useState<Record<number, number>>({});
  const [mesa, setMesa] = useState<string>(String(detail.id_mesa ?? ''));
  const lineas = Object.entries(picked)
    .filter(([, qty]) => qty > 0)
    .map(([item, qty]) => ({ id_item: Number(item), cantidad: qty }));
  return (
    <Dialog title="Dividir la cuenta" onClose={onClose}>
      <form
        class="grid"
        onSubmit={(e) => {
          e.preventDefault();
          onSplit({ lineas, id_mesa: mesa === '' ? null : Number(mesa) });
        }}
      >
        <p class="muted">Lo elegido pasa a una comanda nueva.</p>
        <div class="split-lines">
          {detail.lineas.map((l) => (
            <label key={l.id_item} class="inline">
              <input
                type="number"
                min={0}
                max={l.cantidad}
                step="any"
                aria-label={`Cantidad de ${l.producto} a separar`}
                value={picked[l.id_item] ?? 0}
                onInput={(e) =>
                  setPicked({
                    ...picked,
                    [l.id_item]: Math.min(
                      l.cantidad,
                      Math.max(0, Number(e.currentTarget.value) || 0),
                    ),
                  })
                }
              />
              <span>
                de {cantidad(l.cantidad)} · {l.producto}
              </span>
            </label>
          ))}
        </div>
        <label>
          Mesa de la nueva comanda
          <select value={mesa} onChange={(e) => setMesa(e.currentTarget.value)}>
            <MesaOptions mesas={mesas} />
          </select>
        </label>
        <div class="actions">
          <button type="submit" disabled={busy || lineas.length === 0}>
            Separar
          </button>
          <button type="button" class="secondary" onClick={onClose}>
            Cancelar
          </button>
        </div>
      </form>
    </Dialog>
  );
}

export function MergeDialog({
  others,
  busy,
  onClose,
  onMerge,
}: {
  others: ComandaSummary[];
  busy: boolean;
  onClose: () => void;
  onMerge: (ids: number[]) => void;
}) {
  const [chosen, setChosen] = useState<number[]>([]);
  return (
    <Dialog title="Unir comandas" onClose={onClose}>
      <form
        class="grid"
        onSubmit={(e) => {
          e.preventDefault();
          onMerge(chosen);
        }}
      >
        <p class="muted">
          Las líneas de las elegidas pasan a esta comanda; las elegidas quedan anuladas.
        </p>
        <div class="merge-list">
          {[...others]
            .sort((a, b) => (a.mesa ?? Infinity) - (b.mesa ?? Infinity))
            .map((c) => (
              <label key={c.id_comanda} class="inline">
                <input
                  type="checkbox"
                  checked={chosen.includes(c.id_comanda)}
                  onChange={(e) =>
                    setChosen(
                      e.currentTarget.checked
                        ? [...chosen, c.id_comanda]
                        : chosen.filter((x) => x !== c.id_comanda),
                    )
                  }
                />
                <span>
                  Comanda {c.numero_ticket} · {c.mesa !== null ? `mesa ${c.mesa}` : 'para llevar'} ·{' '}
                  {soles(c.total)}
                </span>
              </label>
            ))}
        </div>
        <div class="actions">
          <button type="submit" disabled={busy || chosen.length === 0}>
            Unir
          </button>
          <button type="button" class="secondary" onClick={onClose}>
            Cancelar
          </button>
        </div>
      </form>
    </Dialog>
  );
}
