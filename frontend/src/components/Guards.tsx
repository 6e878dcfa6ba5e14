import type { ReactNode } from 'react';
import { Navigate, useLocation } from 'react-router-dom';
import { useUser } from '../store/hooks';

/** dashboard, security, myaccount, bots: need login, otherwise to sign-in. */
export function RequireAuth({ children }: { children: ReactNode }) {
  const user = useUser();
  const location = useLocation();
  if (!user) return <Navigate to="/sign-in" replace state={{ from: location.pathname }} />;
  return <>{children}</>;
}

/** sign-in, register-user: only when not logged in; a logged-in user is sent to dashboard. */
export function GuestOnly({ children }: { children: ReactNode }) {
  const user = useUser();
  if (user) return <Navigate to="/dashboard" replace />;
  return <>{children}</>;
}
