/** The kinds of key whose prefix names what they are (Stripe's secret, restricted, publishable keys, webhook secrets). */
const KIND = /^(sk|rk|pk|whsec)_(test_|live_)?/;

/**
 * How a secret key is shown once saved (an AI platform's key, a Stripe key): `sk-...abcd`, `sk_test_...wxyz`, its kind and
 * its last 4 characters, enough to recognise it and never enough to use it (decision 071). The kind is a
 * known prefix with its `test_`/`live_`, else the first 3 characters; a key of 8 characters or fewer shows none of itself.
 */
export function keyHint(key: string): string {
  if (key.length <= 8) return "...";
  const kind = KIND.exec(key)?.[0] ?? key.slice(0, 3);
  return `${kind}...${key.slice(-4)}`;
}
