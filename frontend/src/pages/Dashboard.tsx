import { BadgeCheck, CircleAlert } from 'lucide-react';
import { Link } from 'react-router-dom';
import type { User } from '../api/types';
import { DummyAvatar } from '../components/Art';
import { useUser } from '../store/hooks';
import { Facts } from '../components/Facts';

export function Avatar({ user, size = 96 }: { user: User; size?: number }) {
  return user.photoURL ? (
    <img src={user.photoURL} alt="Profile photo" width={size} height={size} className="avatar" referrerPolicy="no-referrer" />
  ) : (
    <DummyAvatar size={size} />
  );
}

export function VerifiedFlag({ verified }: { verified: boolean }) {
  return verified ? (
    <span className="badge badge--ok">
      <BadgeCheck size={14} aria-hidden="true" /> Verified
    </span>
  ) : (
    <span className="badge badge--warn">
      <CircleAlert size={14} aria-hidden="true" /> Not verified
    </span>
  );
}

/** /dashboard: 'User Profile'. */
export function Dashboard() {
  const user = useUser()!;
  return (
    <div className="page page--narrow">
      <section className="card profile" aria-labelledby="dash-title">
        <h1 id="dash-title">User Profile</h1>
        <div className="profile__head">
          <Avatar user={user} />
          <div>
            <p className="profile__name">{user.displayName || 'User'}</p>
            <VerifiedFlag verified={user.emailVerified} />
          </div>
        </div>
        <Facts
          facts={[
            { term: 'User ID', value: user.uid, mono: true },
            { term: 'Email', value: user.email },
            { term: 'Email verified', value: user.emailVerified ? 'true' : 'false' },
          ]}
        />
        <div className="actions actions--start">
          <Link to="/bots" className="btn btn--primary">
            My bots
          </Link>
          <Link to="/myaccount" className="btn btn--ghost">
            Profile
          </Link>
        </div>
      </section>
    </div>
  );
}
