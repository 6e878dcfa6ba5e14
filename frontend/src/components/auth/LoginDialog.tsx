import { Modal } from '../Modal';
import { useAppDispatch, useAppSelector } from '../../store/hooks';
import { ui } from '../../store/uiSlice';
import { ForgotForm, LoginForm, RegisterForm } from './AuthForms';
import { LoginViaProviders } from './ProviderButtons';

/** The login dialog: login (default), register and forgot-password panels, one at a time. */
export function LoginDialog() {
  const panel = useAppSelector((s) => s.ui.loginDialog);
  const dispatch = useAppDispatch();
  if (!panel) return null;
  const go = (p: 'login' | 'register' | 'forgot') => dispatch(ui.openLoginDialog(p));
  const close = () => dispatch(ui.closeLoginDialog());
  const title = panel === 'login' ? 'Login' : panel === 'register' ? 'Create a free account!' : 'Reset Password';
  return (
    <Modal title={title} onClose={close}>
      {panel !== 'forgot' ? (
        <>
          <LoginViaProviders heading="h3" />
        </>
      ) : (
        <p className="muted">Please enter your email address to request a password reset.</p>
      )}
      {panel === 'login' ? (
        <LoginForm
          idPrefix="dlg-login"
          footer={
            <div className="form-links">
              <p>
                Forget Password ?{' '}
                <button type="button" className="link" onClick={() => go('forgot')}>
                  send email
                </button>
              </p>
              <p>
                Don't have an account?{' '}
                <button type="button" className="link" onClick={() => go('register')}>
                  Register
                </button>
              </p>
            </div>
          }
        />
      ) : panel === 'register' ? (
        <RegisterForm
          idPrefix="dlg-register"
          footer={
            <div className="form-links">
              <p>
                Already have an account?{' '}
                <button type="button" className="link" onClick={() => go('login')}>
                  Login
                </button>
              </p>
            </div>
          }
        />
      ) : (
        <ForgotForm
          idPrefix="dlg-forgot"
          footer={
            <div className="form-links">
              <p>
                Go back to ?{' '}
                <button type="button" className="link" onClick={() => go('login')}>
                  Log In
                </button>
              </p>
            </div>
          }
        />
      )}
    </Modal>
  );
}
