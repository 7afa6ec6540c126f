import { createContext, useCallback, useContext, useMemo, useState, type ReactNode } from 'react';

const DEMO_COOKIE = 'porter_demo_user';

/** Whether the serving host asked for the development sign-in control. */
export const DEMO_SIGN_IN = document.querySelector<HTMLMetaElement>('meta[name="porter-demo-sign-in"]')?.content === 'on';

export interface Session {
  /** The demo user's name, or null when anonymous (or when the host signs people in itself). */
  readonly user: string | null;
  /** Changes whenever who is signed in changes: everything loaded for the last person reloads. */
  readonly epoch: number;
  /** Changes whenever the thread list should be read again (a new thread, a new title). */
  readonly threadsEpoch: number;
  signIn(name: string): void;
  signOut(): void;
  refreshThreads(): void;
}

const SessionContext = createContext<Session | null>(null);

export function SessionProvider({ children }: { children: ReactNode }) {
  const [user, setUser] = useState(readDemoUser);
  const [epoch, setEpoch] = useState(0);
  const [threadsEpoch, setThreadsEpoch] = useState(0);

  const signIn = useCallback((name: string) => {
    const trimmed = name.trim();
    if (!trimmed) return;
    document.cookie = `${DEMO_COOKIE}=${encodeURIComponent(trimmed)}; path=/; SameSite=Lax; max-age=${60 * 60 * 24 * 30}`;
    setUser(trimmed);
    setEpoch((n) => n + 1);
  }, []);
  const signOut = useCallback(() => {
    document.cookie = `${DEMO_COOKIE}=; path=/; SameSite=Lax; max-age=0`;
    setUser(null);
    setEpoch((n) => n + 1);
  }, []);
  const refreshThreads = useCallback(() => setThreadsEpoch((n) => n + 1), []);

  const session = useMemo(
    () => ({ user, epoch, threadsEpoch, signIn, signOut, refreshThreads }),
    [user, epoch, threadsEpoch, signIn, signOut, refreshThreads],
  );
  return <SessionContext.Provider value={session}>{children}</SessionContext.Provider>;
}

export function useSession(): Session {
  const session = useContext(SessionContext);
  if (!session) throw new Error('useSession outside SessionProvider');
  return session;
}

function readDemoUser(): string | null {
  if (!DEMO_SIGN_IN) return null;
  const pair = document.cookie.split('; ').find((c) => c.startsWith(`${DEMO_COOKIE}=`));
  const value = pair ? decodeURIComponent(pair.slice(DEMO_COOKIE.length + 1)).trim() : '';
  return value || null;
}
