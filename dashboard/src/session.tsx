import { createContext, useContext } from 'react';

export type Environment = 'SANDBOX' | 'PRODUCTION';
export type Permission = 'VIEW' | 'TRANSACT' | 'MANAGE';

export interface Session {
  user: { id: string; email: string; role: string };
  platform: { id: string; name: string };
  environment: Environment;
  permissions: Permission[];
  csrfToken: string;
  expiresAt: string;
}

export interface SessionContextValue {
  session: Session;
  switchEnvironment(environment: Environment): Promise<void>;
  signOut(): Promise<void>;
  can(permission: Permission): boolean;
}

export const SessionContext = createContext<SessionContextValue | null>(null);

export function useSession(): SessionContextValue {
  const value = useContext(SessionContext);
  if (!value) throw new Error('useSession outside the signed-in app');
  return value;
}
