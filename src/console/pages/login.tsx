// A bearer token typed once (kept for this tab's session), or a one-time login link's code.
import { useRef, useState } from 'preact/hooks';
import { apiGet, clearToken, setToken } from '../api.js';

export function LoginPage(props: { error: string; onLogin: () => void }) {
  const input = useRef<HTMLInputElement>(null);
  const [error, setError] = useState(props.error);
  return (
    <div class="page login" data-testid="login-page">
      <h1>Capstan console</h1>
      <p>
        Paste a bearer token (the <code>token</code> of your kubeconfig), or open the one-time link{' '}
        <code>npm start</code> prints.
      </p>
      <form
        onSubmit={(e) => {
          e.preventDefault();
          setToken(input.current?.value.trim() ?? '');
          apiGet('/api').then(props.onLogin, (err: unknown) => {
            clearToken();
            setError((err as Error).message);
          });
        }}
      >
        <input
          ref={input}
          type="password"
          name="token"
          placeholder="bearer token"
          autoFocus
          data-testid="token"
        />
        <button type="submit">Log in</button>
      </form>
      {error !== '' && (
        <p class="error" data-testid="login-error">
          {error}
        </p>
      )}
    </div>
  );
}
