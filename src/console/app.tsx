// The shell: login gate, discovery once, navigation and the page for the route.
import { useEffect, useState } from 'preact/hooks';
import { clearToken, getToken, redeemLogin } from './api.js';
import { discover, type Resource } from './discovery.js';
import { useKeys } from './keyboard.js';
import { EventsPage } from './pages/events.js';
import { ListPage } from './pages/list.js';
import { LoginPage } from './pages/login.js';
import { ObjectPage } from './pages/object.js';
import { ResourcesPage } from './pages/resources.js';
import { TestAPIPage, testAPIServed } from './pages/test-api.js';
import { useRoute } from './route.js';

/** A login link's code (#login=CODE), traded for a token and removed from the address. */
async function loginFromLink(): Promise<string> {
  const m = /^#login=([\w-]+)$/.exec(location.hash);
  if (m === null) return '';
  history.replaceState(null, '', location.pathname + '#/');
  try {
    await redeemLogin(m[1] ?? '');
    return '';
  } catch (err) {
    return (err as Error).message;
  }
}

export function App() {
  const [ready, setReady] = useState(false);
  const [authed, setAuthed] = useState(false);
  const [error, setError] = useState('');
  const [resources, setResources] = useState<readonly Resource[]>([]);
  const [testAPI, setTestAPI] = useState(false);
  const route = useRoute();
  const start = (): void => {
    discover().then(
      (rs) => {
        setResources(rs);
        setAuthed(true);
        void testAPIServed().then(setTestAPI);
      },
      (err: unknown) => {
        clearToken();
        setAuthed(false);
        setError((err as Error).message);
      },
    );
  };
  useEffect(() => {
    void loginFromLink().then((e) => {
      setError(e);
      setReady(true);
      if (getToken() !== null) start();
    });
  }, []);
  useKeys({
    'g r': () => {
      location.hash = '#/';
    },
    'g e': () => {
      location.hash = '#/events';
    },
  });
  if (!ready) return null;
  if (!authed) return <LoginPage error={error} onLogin={start} />;
  return (
    <div class="shell">
      <header class="top">
        <a href="#/" class="brand">
          Capstan
        </a>
        <a href="#/" data-testid="nav-resources">
          Resources
        </a>
        <a href="#/events" data-testid="nav-events">
          Events
        </a>
        {testAPI && (
          <a href="#/test" data-testid="nav-test">
            Test controls
          </a>
        )}
        <span class="hint">g r · g e · j/k · Enter · /</span>
        <button
          onClick={() => {
            clearToken();
            setAuthed(false);
          }}
        >
          Log out
        </button>
      </header>
      <main>
        {route.page === 'resources' && <ResourcesPage resources={resources} />}
        {route.page === 'events' && <EventsPage />}
        {route.page === 'test' && <TestAPIPage />}
        {route.page === 'list' && (
          <ListPage
            key={`${route.group}/${route.resource}`}
            resources={resources}
            group={route.group}
            resource={route.resource}
            query={route.query}
          />
        )}
        {route.page === 'object' && <ObjectPage resources={resources} {...route} />}
      </main>
    </div>
  );
}
