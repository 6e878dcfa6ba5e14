/**
 * "Chrome on Linux": a User-Agent header summarised for the list of sessions (issue 30). Pure.
 *
 * The tokens and the order they are tried in follow MDN, "Browser detection using the user agent"
 * (https://developer.mozilla.org/en-US/docs/Web/HTTP/Browser_detection_using_the_user_agent):
 * Chromium browsers also say "Chrome/" and "Safari/", so the more specific tokens come first
 * (Edge "Edg/", Opera "OPR/", Samsung Internet "SamsungBrowser/"), Chrome "Chrome/" or "CriOS/"
 * (iOS) before Safari, whose "Safari/" appears without "Chrome"; Firefox "Firefox/" or "FxiOS/" (iOS).
 * Platforms from the same page's list and Chrome's own UA strings
 * (https://www.chromium.org/updates/ua-reduction/): "Windows NT", "Android" (before Linux: Android
 * says "Linux" too), "iPhone"/"iPad"/"iPod" (before Mac: iOS says "like Mac OS X"), "CrOS", "Mac OS X"
 * / "Macintosh", "Linux".
 */
export function summariseUserAgent(ua: string | undefined | null): string {
  const s = (ua ?? '').slice(0, 512);
  if (!s.trim()) return 'Unknown browser';
  const browser = browserOf(s);
  const platform = platformOf(s);
  if (!browser && !platform) return 'Unknown browser';
  if (!platform) return browser!;
  return `${browser ?? 'Unknown browser'} on ${platform}`;
}

function browserOf(s: string): string | null {
  if (/\bEdg(e|A|iOS)?\//.test(s)) return 'Edge';
  if (/\bOPR\/|\bOpera\b/.test(s)) return 'Opera';
  if (/\bSamsungBrowser\//.test(s)) return 'Samsung Internet';
  if (/\bFirefox\/|\bFxiOS\//.test(s)) return 'Firefox';
  if (/\bHeadlessChrome\//.test(s)) return 'Headless Chrome';
  if (/\bChrome\/|\bCriOS\/|\bChromium\//.test(s)) return 'Chrome';
  if (/\bSafari\//.test(s) && /\bVersion\//.test(s)) return 'Safari';
  if (/^curl\//.test(s)) return 'curl';
  if (/^node\b|\bundici\b|^node-fetch\b/i.test(s)) return 'Node.js';
  return null;
}

function platformOf(s: string): string | null {
  if (/\bWindows NT\b|\bWindows\b/.test(s)) return 'Windows';
  if (/\bAndroid\b/.test(s)) return 'Android';
  if (/\biPhone\b|\biPod\b/.test(s)) return 'iPhone';
  if (/\biPad\b/.test(s)) return 'iPad';
  if (/\bCrOS\b/.test(s)) return 'ChromeOS';
  if (/\bMac OS X\b|\bMacintosh\b/.test(s)) return 'macOS';
  if (/\bLinux\b|\bX11\b/.test(s)) return 'Linux';
  return null;
}
