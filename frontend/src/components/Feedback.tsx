import { useEffect } from 'react';
import { CircleAlert, CircleCheck, Info, X } from 'lucide-react';
import { useAppDispatch, useAppSelector } from '../store/hooks';
import { ui, type Toast } from '../store/uiSlice';
import { Modal } from './Modal';

/** Full-screen spinner while a request the user waits for is in flight (spec: spinner overlay). */
export function SpinnerOverlay() {
  const busy = useAppSelector((s) => s.ui.spinner > 0);
  if (!busy) return null;
  return (
    <div className="spinner-overlay" role="status" aria-live="polite" data-testid="spinner">
      <div className="spinner" aria-hidden="true" />
      <span className="sr-only">Loading…</span>
    </div>
  );
}

function ToastItem({ toast }: { toast: Toast }) {
  const dispatch = useAppDispatch();
  useEffect(() => {
    const t = setTimeout(() => dispatch(ui.dismissToast(toast.id)), toast.kind === 'error' ? 9000 : 5000);
    return () => clearTimeout(t);
  }, [dispatch, toast.id, toast.kind]);
  const Icon = toast.kind === 'success' ? CircleCheck : toast.kind === 'error' ? CircleAlert : Info;
  return (
    <div className={`toast toast--${toast.kind}`} role={toast.kind === 'error' ? 'alert' : 'status'}>
      <Icon size={20} aria-hidden="true" className="toast__icon" />
      <div className="toast__text">
        <strong>{toast.text}</strong>
        {toast.detail ? <span className="toast__detail">{toast.detail}</span> : null}
      </div>
      <button type="button" className="icon-btn" aria-label="Dismiss notification" onClick={() => dispatch(ui.dismissToast(toast.id))}>
        <X size={16} aria-hidden="true" />
      </button>
    </div>
  );
}

export function Toasts() {
  const toasts = useAppSelector((s) => s.ui.toasts);
  return (
    <div className="toasts" aria-live="polite">
      {toasts.map((t) => (
        <ToastItem key={t.id} toast={t} />
      ))}
    </div>
  );
}

/** The spec's browser alerts (provider messages, reset mail sent), as an in-page alert dialog. */
export function AlertDialog() {
  const alert = useAppSelector((s) => s.ui.alert);
  const dispatch = useAppDispatch();
  if (!alert) return null;
  const close = () => dispatch(ui.closeAlert());
  return (
    <Modal title="GridRocket says" onClose={close} role="alertdialog" hideClose>
      <p className="alert__message" data-testid="alert-message">
        {alert.message}
      </p>
      <div className="actions">
        <button type="button" className="btn btn--primary" onClick={close} data-autofocus>
          OK
        </button>
      </div>
    </Modal>
  );
}

/**
 * A form's refusal under it (the server's words or a rule's), read out at once; nothing while there is none
 * (issue 42: the key, token, signal and bot forms each wrote this paragraph).
 */
export function FormRefusal({ message, className, id, testId }: { message: string | null | undefined | false; className?: string; id?: string; testId?: string }) {
  if (!message) return null;
  return (
    <p className={className ? `form-error ${className}` : 'form-error'} id={id} role="alert" data-testid={testId}>
      {message}
    </p>
  );
}
