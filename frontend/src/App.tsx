import { lazy, Suspense, useEffect, useRef } from 'react';
import { Navigate, Route, Routes } from 'react-router-dom';
import { request } from './api/http';
import { closeSocket, connectSocket, onConnectionChange } from './api/socket';
import type { User } from './api/types';
import { Layout } from './components/Layout';
import { GuestOnly, RequireAuth } from './components/Guards';
import { setUser } from './store/authSlice';
import { useAppDispatch, useUser } from './store/hooks';
import { ui } from './store/uiSlice';
import { Home } from './pages/Home';
import { SignIn } from './pages/SignIn';
import { ForgotPassword } from './pages/ForgotPassword';
import { VerifyEmail } from './pages/VerifyEmail';
import { ResetPassword } from './pages/ResetPassword';
import { Dashboard } from './pages/Dashboard';
import { MyAccount } from './pages/MyAccount';
import { PrivacyPolicy } from './pages/PrivacyPolicy';
import { PageLoading } from './components/PageKit';

// heavy or rarely opened screens are split from the landing route's bundle
const BotsPage = lazy(() => import('./pages/BotsPage'));
const SecurityPage = lazy(() => import('./pages/SecurityPage'));
const TermsPage = lazy(() => import('./pages/TermsPage'));
const FaqPage = lazy(() => import('./pages/FaqPage'));
const HistoryPage = lazy(() => import('./pages/HistoryPage'));
const BotPage = lazy(() => import('./pages/BotPage'));
const PerformancePage = lazy(() => import('./pages/PerformancePage'));
const AlertsPage = lazy(() => import('./pages/AlertsPage'));
const AuditPage = lazy(() => import('./pages/AuditPage'));
const BalancesPage = lazy(() => import('./pages/BalancesPage'));

function PageFallback() {
  return (
    <PageLoading />
  );
}

/**
 * Confirms the stored user with the server (only when there is one) and keeps the push connection
 * for a signed-in user.
 */
export function Session() {
  const dispatch = useAppDispatch();
  const user = useUser();
  const hadUser = useRef(Boolean(user));
  useEffect(() => {
    let live = true;
    // a visitor with no stored user has no session to confirm: asking would only log a 401
    if (!hadUser.current) {
      dispatch(setUser(null));
      return;
    }
    void request<User>({ url: '/api/auth/me' }).then((res) => {
      if (!live) return;
      if (res.data && res.data.uid) dispatch(setUser(res.data));
      else if (res.error && (res.error.status === 401 || res.error.status === 403)) dispatch(setUser(null));
    });
    return () => {
      live = false;
    };
  }, [dispatch]);
  const uid = user?.uid;
  useEffect(() => {
    const off = onConnectionChange((c) => dispatch(ui.setSocketConnected(c)));
    if (uid) connectSocket();
    else closeSocket();
    return () => {
      off();
    };
  }, [uid, dispatch]);
  return null;
}

export function AppRoutes() {
  return (
    <Suspense fallback={<PageFallback />}>
      <Routes>
        <Route element={<Layout />}>
          <Route path="/home" element={<Home />} />
          <Route path="/sign-in" element={<GuestOnly><SignIn mode="login" /></GuestOnly>} />
          <Route path="/register-user" element={<GuestOnly><SignIn mode="register" /></GuestOnly>} />
          <Route path="/forgot-password" element={<ForgotPassword />} />
          <Route path="/verify-email-address" element={<VerifyEmail />} />
          <Route path="/reset-password" element={<ResetPassword />} />
          <Route path="/dashboard" element={<RequireAuth><Dashboard /></RequireAuth>} />
          <Route path="/myaccount" element={<RequireAuth><MyAccount /></RequireAuth>} />
          <Route path="/security" element={<RequireAuth><Suspense fallback={<PageFallback />}><SecurityPage /></Suspense></RequireAuth>} />
          <Route path="/bots" element={<RequireAuth><Suspense fallback={<PageFallback />}><BotsPage /></Suspense></RequireAuth>} />
          <Route path="/bots/:id" element={<RequireAuth><Suspense fallback={<PageFallback />}><BotPage /></Suspense></RequireAuth>} />
          <Route path="/alerts" element={<RequireAuth><Suspense fallback={<PageFallback />}><AlertsPage /></Suspense></RequireAuth>} />
          <Route path="/bots/:id/history" element={<RequireAuth><Suspense fallback={<PageFallback />}><HistoryPage /></Suspense></RequireAuth>} />
          <Route path="/bots/:id/performance" element={<RequireAuth><Suspense fallback={<PageFallback />}><PerformancePage /></Suspense></RequireAuth>} />
          <Route path="/balances" element={<RequireAuth><Suspense fallback={<PageFallback />}><BalancesPage /></Suspense></RequireAuth>} />
          <Route path="/audit" element={<RequireAuth><Suspense fallback={<PageFallback />}><AuditPage /></Suspense></RequireAuth>} />
          <Route path="/privacypolicy" element={<PrivacyPolicy />} />
          <Route path="/termsofservice" element={<Suspense fallback={<PageFallback />}><TermsPage /></Suspense>} />
          <Route path="/faq" element={<Suspense fallback={<PageFallback />}><FaqPage /></Suspense>} />
          <Route path="*" element={<Navigate to="/home" replace />} />
        </Route>
      </Routes>
    </Suspense>
  );
}
