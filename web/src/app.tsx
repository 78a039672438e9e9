import type { ComponentType } from 'preact';
import { useEffect, useRef, useState } from 'preact/hooks';
import { createApi, loadSession, loadTenant, ok, saveSession, type Session } from './api';
import { Floor } from './screens/floor';
import { History } from './screens/history';
import { Tables } from './screens/tables';
import { Attendance } from './screens/attendance';
import { Reservas } from './screens/reservas';
import { Caja } from './screens/caja';
import { Inventario } from './screens/inventario';
import { Cocina } from './screens/cocina';
import { Webhooks } from './screens/webhooks';
import { ErrorBanner } from './components';
import { SessionContext, type SessionState } from './session';
import { Credentials, SignIn } from './sign-in';
import { hasExpired, isUnauthenticated, SESSION_ENDED } from './sign-in-rules';

type Screen =
  | 'sala'
  | 'cocina'
  | 'caja'
  | 'reservas'
  | 'historial'
  | 'inventario'
  | 'reportes'
  | 'tablas'
  | 'asistencia'
  | 'webhooks';

const SCREENS: { id: Screen; label: string }[] = [
  { id: 'sala', label: 'Sala' },
  { id: 'cocina', label: 'Cocina' },
  { id: 'caja', label: 'Caja' },
  { id: 'reservas', label: 'Reservas' },
  { id: 'historial', label: 'Historial' },
  { id: 'inventario', label: 'Inventario' },
  { id: 'reportes', label: 'Reportes' },
  { id: 'tablas', label: 'Tablas' },
  { id: 'asistencia', label: 'Asistencia' },
  { id: 'webhooks', label: 'Webhooks' },
];

/**
 * Reportes, loaded on its first showing: its charts (Chart.js) are a file of their own, which a
 * tablet that never opens the reports never downloads.
 */
function Reportes() {
  const [screen, setScreen] = useState<{ Reportes: ComponentType } | null>(null);
  const [error, setError] = useState<unknown>(null);
  useEffect(() => {
    import('./screens/reportes').then(setScreen).catch(setError);
  }, []);
  if (error) return <ErrorBanner error={error} />;
  return screen ? <screen.Reportes /> : <p class="loading">Cargando…</p>;
}

/** The screen named in the URL's hash (#/sala ...), so a reload stays where it was. */
function screenOfHash(): Screen {
  const id = location.hash.replace(/^#\/?/, '');
  return SCREENS.find((s) => s.id === id)?.id ?? 'sala';
}

/** `Carmen Rosa · admin, cajero`: who is signed in and their roles. */
function whoText(state: SessionState): string {
  const name = state.me.nombre ?? 'Sin autenticación';
  return state.me.roles.length > 0 ? `${name} · ${state.me.roles.join(', ')}` : name;
}

export function App() {
  const [state, setState] = useState<SessionState | null>(null);
  const [restoring, setRestoring] = useState(true);
  const [screen, setScreen] = useState<Screen>(screenOfHash());
  /** Entrar's restaurant and why the page is there again. */
  const [entry, setEntry] = useState<{ tenant: string; notice?: string }>({
    tenant: loadTenant() ?? 'demo',
  });
  /** "Cambiar de usuario": the previous user is signed out, the PIN pad is over the screen. */
  const [switching, setSwitching] = useState(false);
  /** The session whose 401 UNAUTHENTICATED ends the page's session (none while switching). */
  const active = useRef<Session | null>(null);

  /** Back to Entrar, the restaurant filled in. */
  const leave = (session: Session, notice?: string) => {
    active.current = null;
    saveSession(null);
    setState(null);
    setSwitching(false);
    setEntry({ tenant: session.tenant, notice });
  };

  /** Reads the restaurant and the user (GET /tenant, /me) with these headers, and shows them. */
  const open = async (session: Session) => {
    const api = createApi(session, {
      // an expired or revoked token, on any request of any screen (the live stream included)
      onUnauthenticated: () => {
        if (active.current === session) leave(session, SESSION_ENDED);
      },
    });
    const [tenant, me] = await Promise.all([
      ok(api.GET('/api/v1/tenant')),
      ok(api.GET('/api/v1/me')),
    ]);
    const granted = new Set(me.permissions);
    active.current = session;
    saveSession(session);
    setState({ api, session, tenant, me, can: (p) => granted.has(p) });
    setSwitching(false);
  };

  /** Ends the token at the service; a failure (already ended, no connection) changes nothing here. */
  const signOutAtService = (signedIn: SessionState) => {
    active.current = null;
    if (signedIn.session.token)
      void signedIn.api.POST('/api/v1/auth/logout').catch(() => undefined);
  };

  useEffect(() => {
    const onHash = () => setScreen(screenOfHash());
    addEventListener('hashchange', onHash);
    const saved = loadSession();
    if (!saved) setRestoring(false);
    else if (hasExpired(saved)) {
      leave(saved, SESSION_ENDED);
      setRestoring(false);
    } else {
      open(saved)
        .catch((err: unknown) =>
          leave(saved, saved.token && isUnauthenticated(err) ? SESSION_ENDED : undefined),
        )
        .finally(() => setRestoring(false));
    }
    return () => removeEventListener('hashchange', onHash);
  }, []);

  if (restoring) return <p class="loading">Cargando…</p>;
  if (!state) return <SignIn tenant={entry.tenant} notice={entry.notice} open={open} />;

  const visible = SCREENS.filter(
    (s) =>
      (s.id !== 'reservas' || state.tenant.features?.reservas) &&
      // the kitchen display: the feature on and cocina:read (GET /me)
      (s.id !== 'cocina' || (state.tenant.features?.cocina && state.can('cocina:read'))) &&
      // the tills are read and worked with caja:operate (GET /me), like "Abrir comanda" follows
      // comandas:write: a waiter or the kitchen has no Caja to look at
      (s.id !== 'caja' || (state.tenant.features?.cobros && state.can('caja:operate'))) &&
      // the stock is read with inventario:read; the kitchen, who only records waste
      // (inventario:waste), gets the screen with the waste form alone
      (s.id !== 'inventario' ||
        (state.tenant.features?.inventario &&
          (state.can('inventario:read') || state.can('inventario:waste')))) &&
      // the reports: the feature on and reportes:read (GET /me: the admin, the cashier)
      (s.id !== 'reportes' || (state.tenant.features?.reportes && state.can('reportes:read'))) &&
      (s.id !== 'tablas' || state.tenant.features?.genericTables) &&
      (s.id !== 'asistencia' || state.tenant.features?.rpc) &&
      // the endpoints and their secrets: the feature on and webhooks:manage (GET /me: the admin)
      (s.id !== 'webhooks' || (state.tenant.features?.webhooks && state.can('webhooks:manage'))),
  );
  const current = visible.some((s) => s.id === screen) ? screen : 'sala';

  return (
    <SessionContext.Provider value={state}>
      <header class="top" inert={switching}>
        <strong class="brand">{state.tenant.name}</strong>
        <nav aria-label="Pantallas">
          {visible.map((s) => (
            <a
              key={s.id}
              href={`#/${s.id}`}
              class={s.id === current ? 'tab active' : 'tab'}
              aria-current={s.id === current ? 'page' : undefined}
            >
              {s.label}
            </a>
          ))}
        </nav>
        <span class="who" title={whoText(state)}>
          <span class="who-name">{state.me.nombre ?? 'Sin autenticación'}</span>
          {state.me.roles.length > 0 && (
            // the tablet shows the name alone (its title has the roles)
            <span class="who-roles"> · {state.me.roles.join(', ')}</span>
          )}
        </span>
        {state.session.token && (
          <button
            type="button"
            class="secondary small"
            // the tablet writes "Cambiar" beside the user's name; its name stays the whole one
            aria-label="Cambiar de usuario"
            title="Cambiar de usuario"
            onClick={() => {
              signOutAtService(state);
              saveSession(null);
              setSwitching(true);
            }}
          >
            Cambiar<span class="wide-only"> de usuario</span>
          </button>
        )}
        <button
          type="button"
          class="secondary small"
          onClick={() => {
            signOutAtService(state);
            leave(state.session);
          }}
        >
          Salir
        </button>
      </header>
      <main inert={switching}>
        {current === 'sala' && <Floor />}
        {current === 'cocina' && <Cocina />}
        {current === 'caja' && <Caja />}
        {current === 'reservas' && <Reservas />}
        {current === 'historial' && <History />}
        {current === 'inventario' && <Inventario />}
        {current === 'reportes' && <Reportes />}
        {current === 'tablas' && <Tables />}
        {current === 'asistencia' && <Attendance />}
        {current === 'webhooks' && <Webhooks />}
      </main>
      {switching && (
        <div class="backdrop">
          <div
            class="dialog switch-user"
            role="dialog"
            aria-modal="true"
            aria-labelledby="switch-user-title"
          >
            <header>
              <h2 id="switch-user-title">Cambiar de usuario</h2>
              <button type="button" class="link" onClick={() => leave(state.session)}>
                Salir
              </button>
            </header>
            <p class="hint">
              {state.me.nombre ?? 'La sesión anterior'} salió. La pantalla sigue donde estaba.
            </p>
            <Credentials tenant={state.session.tenant} open={open} />
          </div>
        </div>
      )}
    </SessionContext.Provider>
  );
}
