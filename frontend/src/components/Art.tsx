import { useId } from 'react';

/** GridRocket's mark: a rocket riding a rising grid. Inline SVG, no network. */
export function Logo({ size = 32 }: { size?: number }) {
  const g = useId();
  return (
    <svg width={size} height={size} viewBox="0 0 64 64" aria-hidden="true" focusable="false">
      <defs>
        <linearGradient id={g} x1="0" y1="0" x2="1" y2="1">
          <stop offset="0" stopColor="#7cf7ff" />
          <stop offset="1" stopColor="#8b5cf6" />
        </linearGradient>
      </defs>
      <circle cx="32" cy="32" r="30" fill="#0b1030" stroke={`url(#${g})`} strokeWidth="3" />
      <path d="M14 46h36M14 38h36M14 30h36" stroke="#3b4a8a" strokeWidth="1.5" strokeDasharray="3 3" />
      <path d="M40 16c-9 2-15 10-17 19l6 6c9-2 17-8 19-17l1-9-9 1z" fill="#e6ecff" />
      <circle cx="39" cy="25" r="3.5" fill="#0b1030" stroke="#7cf7ff" strokeWidth="1.5" />
      <path d="M23 35l-6 1 4-7 5-1zM29 41l-1 6 7-4 1-5z" fill="#8b5cf6" />
      <path d="M22 42c-3 1-5 4-6 7 3-1 6-3 7-6z" fill="#ff8a3d" />
    </svg>
  );
}

/** The home page's image: a rocket climbing past a grid ladder among the stars. */
export function HeroArt() {
  const flame = useId();
  const body = useId();
  return (
    <svg className="hero-art" viewBox="0 0 420 360" role="img" aria-label="A rocket climbing a grid of buy orders towards a take-profit line">
      <defs>
        <linearGradient id={flame} x1="0" y1="0" x2="0" y2="1">
          <stop offset="0" stopColor="#ffd166" />
          <stop offset="0.5" stopColor="#ff8a3d" />
          <stop offset="1" stopColor="#ff3d71" stopOpacity="0" />
        </linearGradient>
        <linearGradient id={body} x1="0" y1="0" x2="1" y2="0">
          <stop offset="0" stopColor="#cfd8ff" />
          <stop offset="1" stopColor="#ffffff" />
        </linearGradient>
      </defs>
      <circle cx="330" cy="70" r="38" fill="#1b2158" />
      <circle cx="318" cy="60" r="8" fill="#252d72" />
      <circle cx="342" cy="84" r="5" fill="#252d72" />
      <ellipse cx="330" cy="70" rx="62" ry="12" fill="none" stroke="#8b5cf6" strokeOpacity=".5" strokeWidth="2" />
      {[[40, 40], [90, 120], [250, 30], [380, 160], [60, 250], [370, 290], [200, 90], [150, 20]].map(([x, y], i) => (
        <circle key={i} cx={x} cy={y} r={i % 3 === 0 ? 2 : 1.3} fill="#fff" opacity={0.5 + (i % 3) * 0.2} />
      ))}
      <g stroke="#3b4a8a" strokeDasharray="5 6" strokeWidth="1.5">
        <line x1="20" y1="300" x2="400" y2="300" />
        <line x1="20" y1="260" x2="400" y2="260" />
        <line x1="20" y1="220" x2="400" y2="220" />
        <line x1="20" y1="180" x2="400" y2="180" />
      </g>
      <line x1="20" y1="120" x2="400" y2="120" stroke="#2ee6a6" strokeWidth="2" strokeDasharray="10 6" />
      <text x="24" y="112" fill="#2ee6a6" fontSize="13" fontFamily="inherit">take profit</text>
      {[300, 260, 220, 180].map((y, i) => (
        <text key={y} x="24" y={y - 6} fill="#7f8bd6" fontSize="11" fontFamily="inherit">
          buy {i + 1}
        </text>
      ))}
      <polyline
        points="20,210 70,240 110,205 150,270 190,230 230,255 270,190 310,200 350,140 400,110"
        fill="none"
        stroke="#7cf7ff"
        strokeWidth="3"
        strokeLinejoin="round"
      />
      {[[150, 270], [230, 255]].map(([x, y]) => (
        <circle key={x} cx={x} cy={y} r="6" fill="#2ee6a6" stroke="#0b1030" strokeWidth="2" />
      ))}
      <g transform="translate(268 138) rotate(35)">
        <path d="M0 60 C -8 90 8 90 0 120 C -4 96 -14 96 0 60z" fill={`url(#${flame})`} className="hero-flame" />
        <path d="M0 -40 C 22 -20 22 30 14 60 H -14 C -22 30 -22 -20 0 -40z" fill={`url(#${body})`} />
        <circle cx="0" cy="6" r="9" fill="#1b2158" stroke="#7cf7ff" strokeWidth="3" />
        <path d="M-14 40 L -30 66 L -12 60z M14 40 L 30 66 L 12 60z" fill="#8b5cf6" />
        <path d="M-6 60 H 6 L 4 68 H -4z" fill="#5b6399" />
      </g>
    </svg>
  );
}

/** A friendly stand-in photo when the user has none (spec: a dummy image). */
export function DummyAvatar({ size = 96 }: { size?: number }) {
  return (
    <svg width={size} height={size} viewBox="0 0 96 96" role="img" aria-label="No profile photo" className="avatar">
      <rect width="96" height="96" rx="48" fill="#1b2158" />
      <circle cx="48" cy="38" r="16" fill="#7f8bd6" />
      <path d="M18 82c4-16 16-24 30-24s26 8 30 24" fill="#7f8bd6" />
    </svg>
  );
}
