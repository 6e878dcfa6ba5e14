import { useCallback } from 'react';
import { flushSync } from 'react-dom';
import { useNavigate } from 'react-router-dom';
import { api, useForgotPasswordMutation, useLoginMutation, useLogoutMutation, useRegisterMutation } from '../../api/api';
import { describeError, request } from '../../api/http';
import { closeSocket } from '../../api/socket';
import { CODE_STEP_PATH } from '../../api/twoFactor';
import type { User } from '../../api/types';
import { setUser } from '../../store/authSlice';
import { useAppDispatch } from '../../store/hooks';
import { ui } from '../../store/uiSlice';

/** Sign-in, sign-up, reset and sign-out with the spec's redirects and messages (sections 2, 4, 8). */
export function useAuthActions() {
  const dispatch = useAppDispatch();
  const navigate = useNavigate();
  const [loginCall] = useLoginMutation();
  const [registerCall] = useRegisterMutation();
  const [forgotCall] = useForgotPasswordMutation();
  const [logoutCall] = useLogoutMutation();

  /** Runs `call` under the spinner; its refusal (or `failure`) in the alert dialog and null, else `{ data }`. */
  const answered = useCallback(
    async <T,>(call: Promise<{ data: T } | { error: unknown }>, failure: string): Promise<{ data: T } | null> => {
      dispatch(ui.showSpinner());
      const res = await call;
      dispatch(ui.hideSpinner());
      if ('error' in res && res.error) {
        dispatch(ui.showAlert(describeError(res.error) || failure));
        return null;
      }
      return res as { data: T };
    },
    [dispatch],
  );

  /** Sets the user and moves on in one render, so the sign-in guard never sends to dashboard. */
  const signedIn = useCallback(
    (user: User, to: string) => {
      flushSync(() => {
        dispatch(setUser(user));
        dispatch(ui.closeLoginDialog());
        navigate(to);
      });
    },
    [dispatch, navigate],
  );

  const login = useCallback(
    async (email: string, password: string) => {
      const res = await answered(loginCall({ email, password }), 'Login failed.');
      if (!res) return false;
      // two-factor sign-in is on (issue 30): 202 "code needed", the code step is next
      if ((res.data as { twoFactorRequired?: boolean }).twoFactorRequired) {
        flushSync(() => {
          dispatch(ui.closeLoginDialog());
          navigate(CODE_STEP_PATH);
        });
        return true;
      }
      signedIn(res.data as User, '/bots');
      return true;
    },
    [answered, dispatch, loginCall, navigate, signedIn],
  );

  const register = useCallback(
    async (email: string, password: string) => {
      const res = await answered(registerCall({ email, password }), 'Registration failed.');
      if (!res) return false;
      signedIn(res.data as User, '/myaccount');
      dispatch(ui.toast('info', 'Verification email sent', `Check ${email} and click the link to verify your address.`));
      return true;
    },
    [answered, dispatch, registerCall, signedIn],
  );

  const forgot = useCallback(
    async (email: string) => {
      if (!(await answered(forgotCall({ email }), 'Password reset failed.'))) return false;
      dispatch(ui.showAlert('Password reset email sent, check your inbox.'));
      return true;
    },
    [answered, dispatch, forgotCall],
  );

  const logout = useCallback(async () => {
    await logoutCall();
    closeSocket();
    // the user and the location change in one render, so no guard sees one without the other
    flushSync(() => {
      dispatch(setUser(null));
      navigate('/home');
    });
    dispatch(api.util.resetApiState());
  }, [dispatch, logoutCall, navigate]);

  /** After a provider popup said ok: read the session's user and go to bots. */
  const completePopupLogin = useCallback(async () => {
    const res = await request<User>({ url: '/api/auth/me' });
    if (res.data && res.data.uid) {
      signedIn(res.data, '/bots');
    } else {
      dispatch(ui.showAlert(describeError(res.error) || 'Sign-in failed.'));
    }
  }, [dispatch, signedIn]);

  return { login, register, forgot, logout, completePopupLogin, signedIn };
}
