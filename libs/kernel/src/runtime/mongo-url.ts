/** The database a MongoDB URL names in its path (`mongodb://host/<database>`), `quire` when it names none. */
export function databaseNameOf(url: string): string {
  const match = /^mongodb(?:\+srv)?:\/\/[^/?#]+\/([^?#]+)/.exec(url);
  return match ? decodeURIComponent(match[1]) : 'quire';
}
