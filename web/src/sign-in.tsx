import { useEffect, useMemo, useRef, useState } from 'preact/hooks';
import { createApi, ok, type Session, type SignedIn } from './api';
import { ErrorBanner, Notice } from './components';
import {
  isUnauthenticated,
  PIN_MIN,
  pinAfterKey,
  pinComplete,
  signInProblem,
  type SignInMethod,
} from './sign-in-rules';

/** Opens the page's session with these headers; throws the service's refusal. */
export type OpenSession = (session: Session) => Promise<void>;

/**
 * Entrar: the restaurant first, then, when the service asks for a sign-in, the PIN pad (or the
 * managers' password form).
 *
 * How the page learns whether there is a sign-in: it opens the restaurant's session without a
 * token (GET /tenant and /me, as with AUTH_MODE=off). Answered, there is no authentication and
 * the page is in; 401 UNAUTHENTICATED means AUTH_MODE=jwt, so it asks who is there. A service
 * whose tokens come from another issuer answers the PIN with 404 SIGN_IN_NOT_AVAILABLE, shown
 * as it is: that service's own sign-in gives the tokens.
 */
export function SignIn({
  tenant: initialTenant,
  notice,
  open,
}: {
  tenant: string;
  /** Why the page is here again (the session ended), shown above the form. */
  notice?: string;
  open: OpenSession;
}) {
  const [tenant, setTenant] = useState(initialTenant);
  const [step, setStep] = useState<'restaurant' | 'credentials'>('restaurant');
  const [error, setError] = useState<unknown>(null);
  const [busy, setBusy] = useState(false);

  const submit = async (e: Event) => {
    e.preventDefault();
    setBusy(true);
    setError(null);
    const slug = tenant.trim();
    try {
      await open({ tenant: slug, token: '' });
    } catch (err) {
      if (isUnauthenticated(err)) {
        setTenant(slug);
        setStep('credentials');
      } else setError(err);
    } finally {
      setBusy(false);
    }
  };

  if (step === 'credentials')
    return (
      <section class="signin signin-credentials" aria-label="Entrar">
        <header class="signin-head">
          <h1>Comandas</h1>
          <p class="signin-tenant">
            <span class="muted">Restaurante</span> <strong>{tenant}</strong>
            <button type="button" class="link" onClick={() => setStep('restaurant')}>
              Cambiar
            </button>
          </p>
        </header>
        <Credentials tenant={tenant} open={open} />
      </section>
    );

  return (
    <form class="signin" aria-label="Entrar" onSubmit={(e) => void submit(e)}>
      <h1>Comandas</h1>
      {notice && <Notice>{notice}</Notice>}
      <label>
        Restaurante
        <input
          name="tenant"
          value={tenant}
          onInput={(e) => setTenant(e.currentTarget.value)}
          autoComplete="organization"
          autoCapitalize="off"
          spellcheck={false}
          required
          pattern="[a-z0-9][a-z0-9\-]*"
        />
      </label>
      <ErrorBanner error={error} />
      <button type="submit" disabled={busy}>
        {busy ? 'Entrando…' : 'Entrar'}
      </button>
    </form>
  );
}

/**
 * Who is there, for one restaurant: the PIN pad, or the documento and password of a manager.
 * Used by Entrar and by "Cambiar de usuario" over the current screen.
 */
export function Credentials({ tenant, open }: { tenant: string; open: OpenSession }) {
  const [method, setMethod] = useState<SignInMethod>('pin');
  const [pin, setPin] = useState('');
  const [documento, setDocumento] = useState('');
  const [password, setPassword] = useState('');
  const [error, setError] = useState<unknown>(null);
  const [busy, setBusy] = useState(false);
  // no token yet: the sign-in routes are the ones that give it
  const api = useMemo(() => createApi({ tenant, token: '' }), [tenant]);

  // the PIN and whether a sign-in is under way, as of the last key: a key pressed before the
  // page has drawn the one before must still see it (a fast typist, Enter right after a digit)
  const typed = useRef('');
  const sending = useRef(false);

  const showPin = (value: string) => {
    typed.current = value;
    setPin(value);
  };

  const enter = async (request: () => Promise<SignedIn>, how: SignInMethod) => {
    if (sending.current) return;
    sending.current = true;
    setBusy(true);
    setError(null);
    try {
      const signed = await request();
      await open({ tenant, token: signed.access_token, expires_at: signed.expires_at });
    } catch (err) {
      setError(signInProblem(err, how));
      showPin('');
      setPassword('');
    } finally {
      sending.current = false;
      setBusy(false);
    }
  };

  const sendPin = () => {
    const pin = typed.current;
    if (!pinComplete(pin)) return;
    void enter(() => ok(api.POST('/api/v1/auth/pin', { body: { pin } })), 'pin');
  };

  const press = (key: string) => {
    if (sending.current) return;
    setError(null);
    showPin(pinAfterKey(typed.current, key));
  };

  // the keyboard works as the pad does: digits, Backspace, Enter
  useEffect(() => {
    if (method !== 'pin') return undefined;
    const onKey = (e: KeyboardEvent) => {
      if (e.ctrlKey || e.metaKey || e.altKey) return;
      const target = e.target as HTMLElement | null;
      if (target && ['INPUT', 'TEXTAREA', 'SELECT'].includes(target.tagName)) return;
      if (e.key === 'Enter') {
        // not also the click of a focused pad button
        e.preventDefault();
        sendPin();
      } else if (/^[0-9]$/.test(e.key) || e.key === 'Backspace') {
        e.preventDefault();
        press(e.key);
      }
    };
    addEventListener('keydown', onKey);
    return () => removeEventListener('keydown', onKey);
  }, [method, api]);

  if (method === 'password')
    return (
      <form
        class="password-form"
        aria-label="Entrar con contraseña"
        onSubmit={(e) => {
          e.preventDefault();
          void enter(
            () =>
              ok(
                api.POST('/api/v1/auth/login', {
                  body: { documento: documento.trim(), password },
                }),
              ),
            'password',
          );
        }}
      >
        <h2>Entrar con contraseña</h2>
        <label>
          Documento
          <input
            name="documento"
            value={documento}
            onInput={(e) => setDocumento(e.currentTarget.value)}
            inputMode="numeric"
            autoComplete="username"
            required
          />
        </label>
        <label>
          Contraseña
          <input
            name="password"
            type="password"
            value={password}
            onInput={(e) => setPassword(e.currentTarget.value)}
            autoComplete="current-password"
            required
          />
        </label>
        <ErrorBanner error={error} />
        <button type="submit" disabled={busy}>
          {busy ? 'Entrando…' : 'Entrar'}
        </button>
        <button
          type="button"
          class="link"
          onClick={() => {
            setError(null);
            setMethod('pin');
          }}
        >
          Volver al PIN
        </button>
      </form>
    );

  return (
    <div class="pin-entry">
      <h2 id="pin-title">Tu PIN</h2>
      <PinDots length={pin.length} />
      <ErrorBanner error={error} />
      <div class="pin-pad" role="group" aria-labelledby="pin-title">
        {['1', '2', '3', '4', '5', '6', '7', '8', '9'].map((digit) => (
          <button key={digit} type="button" disabled={busy} onClick={() => press(digit)}>
            {digit}
          </button>
        ))}
        <button
          type="button"
          class="secondary"
          aria-label="Borrar"
          disabled={busy || pin.length === 0}
          onClick={() => press('Backspace')}
        >
          ⌫
        </button>
        <button type="button" disabled={busy} onClick={() => press('0')}>
          0
        </button>
        <button type="button" class="ok" disabled={busy || !pinComplete(pin)} onClick={sendPin}>
          {busy ? '…' : 'OK'}
        </button>
      </div>
      <button
        type="button"
        class="link"
        onClick={() => {
          setError(null);
          showPin('');
          setMethod('password');
        }}
      >
        Entrar con contraseña
      </button>
    </div>
  );
}

/** The PIN as dots: one per digit typed, never the digits. */
function PinDots({ length }: { length: number }) {
  const slots = Math.max(PIN_MIN, length);
  return (
    <p
      class="pin-dots"
      role="status"
      aria-label={
        length === 0 ? 'PIN vacío' : `PIN: ${length} ${length === 1 ? 'dígito' : 'dígitos'}`
      }
    >
      {Array.from({ length: slots }, (_, i) => (
        <span key={i} class={i < length ? 'dot on' : 'dot'} />
      ))}
    </p>
  );
}
