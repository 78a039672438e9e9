import { useEffect, useState } from 'preact/hooks';
import { ApiError, createApi, loadSession, ok, saveSession, type Session } from './api';
import { ErrorBanner } from './components';
import { Floor } from './screens/floor';
import { History } from './screens/history';
import { Tables } from './screens/tables';
import { Attendance } from './screens/attendance';
import { Reservas } from './screens/reservas';
import { SessionContext, type SessionState } from './session';

type Screen = 'sala' | 'reservas' | 'historial' | 'tablas' | 'asistencia';

const SCREENS: { id: Screen; label: string }[] = [
  { id: 'sala', label: 'Sala' },
  { id: 'reservas', label: 'Reservas' },
  { id: 'historial', label: 'Historial' },
  { id: 'tablas', label: 'Tablas' },
  { id: 'asistencia', label: 'Asistencia' },
];

/** The screen named in the URL's hash (#/sala ...), so a reload stays where it was. */
function screenOfHash(): Screen {
  const id = location.hash.replace(/^#\/?/, '');
  return SCREENS.find((s) => s.id === id)?.id ?? 'sala';
}

async function signIn(session: Session): Promise<SessionState> {
  const api = createApi(session);
  const [tenant, me] = await Promise.all([
    ok(api.GET('/api/v1/tenant')),
    ok(api.GET('/api/v1/me')),
  ]);
  const granted = new Set(me.permissions);
  return { api, session, tenant, me, can: (p) => granted.has(p) };
}

export function App() {
  const [state, setState] = useState<SessionState | null>(null);
  const [restoring, setRestoring] = useState(true);
  const [screen, setScreen] = useState<Screen>(screenOfHash());

  useEffect(() => {
    const onHash = () => setScreen(screenOfHash());
    addEventListener('hashchange', onHash);
    const saved = loadSession();
    if (saved) {
      signIn(saved)
        .then(setState)
        .catch(() => saveSession(null))
        .finally(() => setRestoring(false));
    } else setRestoring(false);
    return () => removeEventListener('hashchange', onHash);
  }, []);

  if (restoring) return <p class="loading">Cargando…</p>;
  if (!state)
    return (
      <SignIn
        onSignedIn={(s, session) => {
          saveSession(session);
          setState(s);
        }}
      />
    );

  const visible = SCREENS.filter(
    (s) =>
      (s.id !== 'reservas' || state.tenant.features?.reservas) &&
      (s.id !== 'tablas' || state.tenant.features?.genericTables) &&
      (s.id !== 'asistencia' || state.tenant.features?.rpc),
  );
  const current = visible.some((s) => s.id === screen) ? screen : 'sala';

  return (
    <SessionContext.Provider value={state}>
      <header class="top">
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
        <span class="who">
          {state.me.nombre ?? 'Sin autenticación'}
          {state.me.roles.length > 0 && ` · ${state.me.roles.join(', ')}`}
        </span>
        <button
          type="button"
          class="secondary"
          onClick={() => {
            saveSession(null);
            setState(null);
          }}
        >
          Salir
        </button>
      </header>
      <main>
        {current === 'sala' && <Floor />}
        {current === 'reservas' && <Reservas />}
        {current === 'historial' && <History />}
        {current === 'tablas' && <Tables />}
        {current === 'asistencia' && <Attendance />}
      </main>
    </SessionContext.Provider>
  );
}

function SignIn({ onSignedIn }: { onSignedIn: (state: SessionState, session: Session) => void }) {
  const [tenant, setTenant] = useState('demo');
  const [token, setToken] = useState('');
  const [error, setError] = useState<unknown>(null);
  const [busy, setBusy] = useState(false);
  const [needsToken, setNeedsToken] = useState(false);

  const submit = async (e: Event) => {
    e.preventDefault();
    setBusy(true);
    setError(null);
    const session = { tenant: tenant.trim(), token: token.trim() };
    try {
      onSignedIn(await signIn(session), session);
    } catch (err) {
      if (err instanceof ApiError && err.status === 401) setNeedsToken(true);
      setError(err);
    } finally {
      setBusy(false);
    }
  };

  return (
    <form class="signin" onSubmit={(e) => void submit(e)}>
      <h1>Comandas</h1>
      <label>
        Restaurante
        <input
          name="tenant"
          value={tenant}
          onInput={(e) => setTenant(e.currentTarget.value)}
          autoComplete="organization"
          required
          pattern="[a-z0-9][a-z0-9\-]*"
        />
      </label>
      <label>
        Token {needsToken ? '(obligatorio)' : '(si el servicio pide autenticación)'}
        <textarea
          name="token"
          rows={3}
          value={token}
          onInput={(e) => setToken(e.currentTarget.value)}
          placeholder="eyJhbGciOi…"
        />
      </label>
      <p class="hint">El token se guarda solo mientras la pestaña esté abierta.</p>
      <ErrorBanner error={error} />
      <button type="submit" disabled={busy}>
        {busy ? 'Entrando…' : 'Entrar'}
      </button>
    </form>
  );
}
