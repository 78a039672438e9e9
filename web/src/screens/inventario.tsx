import { useEffect, useState } from 'preact/hooks';
import { isAbort, ok } from '../api';
import { Dialog, ErrorBanner, Notice } from '../components';
import { useSession } from '../session';
import { mensajeError, type Material, type Saldo } from './inventario-rules';
import { Existencias } from './inventario-existencias';
import { Movimientos } from './inventario-movimientos';
import { MermaForm, MermaSolo } from './inventario-merma';
import { Conteos } from './inventario-conteos';
import { ConsumoReport } from './inventario-consumo';

type Section = 'existencias' | 'conteos' | 'consumo';

const SECTIONS: { id: Section; label: string }[] = [
  { id: 'existencias', label: 'Existencias' },
  { id: 'conteos', label: 'Conteos' },
  { id: 'consumo', label: 'Consumo y food cost' },
];

/**
 * Inventario (docs/inventario.md): the stock of each raw material at its moving-average cost
 * with its alerts, a material's ledger, waste, count sheets (a draft shows the API's
 * differences before it is applied) and the consumption report with the food cost. Reads need
 * inventario:read; waste inventario:waste (the kitchen, who reads no stock, gets the waste form
 * alone); counts inventario:write, and a sheet's buttons are exactly its `acciones`.
 */
export function Inventario() {
  const { can } = useSession();
  if (!can('inventario:read')) return <MermaSolo />;
  return <InventarioCompleto />;
}

function InventarioCompleto() {
  const { api, can, tenant } = useSession();
  const [section, setSection] = useState<Section>('existencias');
  const [saldos, setSaldos] = useState<Saldo[] | null>(null);
  const [materiales, setMateriales] = useState<Material[]>([]);
  const [selected, setSelected] = useState<number | null>(null);
  const [merma, setMerma] = useState<{ id: number | null } | null>(null);
  const [error, setError] = useState<unknown>(null);
  const [notice, setNotice] = useState<string | null>(null);
  /** Bumped to read the balances (and what depends on them) again. */
  const [round, setRound] = useState(0);
  const canWaste = can('inventario:waste');

  useEffect(() => {
    const controller = new AbortController();
    ok(api.GET('/api/v1/inventario', { signal: controller.signal }))
      .then(setSaldos)
      .catch((err) => !isAbort(err) && setError(err));
    return () => controller.abort();
  }, [api, round]);

  useEffect(() => {
    if (!canWaste) return undefined;
    const controller = new AbortController();
    ok(api.GET('/api/v1/inventario/materiales', { signal: controller.signal }))
      .then(setMateriales)
      .catch((err) => !isAbort(err) && setError(err));
    return () => controller.abort();
  }, [api, canWaste]);

  const refresh = () => setRound((n) => n + 1);
  const material = saldos?.find((s) => s.id_mat_prima === selected) ?? null;

  return (
    <div class="inventario">
      <header class="inv-head">
        <h2>Inventario</h2>
        <div class="segmented" role="group" aria-label="Secciones de inventario">
          {SECTIONS.map((s) => (
            <button
              key={s.id}
              type="button"
              class={s.id === section ? 'seg active' : 'seg'}
              aria-pressed={s.id === section}
              onClick={() => {
                setSection(s.id);
                setNotice(null);
              }}
            >
              {s.label}
            </button>
          ))}
        </div>
        {canWaste && (
          <button
            type="button"
            class="inv-merma"
            onClick={() => setMerma({ id: section === 'existencias' ? selected : null })}
          >
            Registrar merma
          </button>
        )}
      </header>
      {notice && <Notice>{notice}</Notice>}
      <ErrorBanner error={mensajeError(error, tenant.timeZone)} onClose={() => setError(null)} />

      {section === 'existencias' &&
        (material ? (
          <Movimientos
            key={material.id_mat_prima}
            saldo={material}
            round={round}
            onBack={() => setSelected(null)}
          />
        ) : (
          <Existencias saldos={saldos} onSelect={setSelected} onRefresh={refresh} />
        ))}
      {section === 'conteos' && <Conteos saldos={saldos ?? []} round={round} onApplied={refresh} />}
      {section === 'consumo' && <ConsumoReport round={round} />}

      {merma && (
        <Dialog title="Registrar merma" onClose={() => setMerma(null)}>
          <MermaForm
            materiales={materiales}
            initial={merma.id}
            saldos={saldos}
            onCancel={() => setMerma(null)}
            onDone={(text) => {
              setMerma(null);
              setError(null);
              setNotice(text);
              refresh();
            }}
          />
        </Dialog>
      )}
    </div>
  );
}
