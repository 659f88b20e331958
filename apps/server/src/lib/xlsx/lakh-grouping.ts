/**
 * Indian digit grouping: the last three digits, then groups of two (12,50,000.50; 1,23,45,678), as a
 * format code asks for by its commas (`#,##,##0.00`, `[$₹-4009]#,##,##0.00`, Excel's Indian
 * accounting format). SSF groups only in threes and refuses any other pattern, so such a code is
 * drawn with grouping in threes and its digits regrouped after.
 */

/** A quoted literal, a bracket ([$₹-4009], [Red]), an escaped, spacing or fill character, or a run of digit placeholders. */
const TOKEN = /"[^"]*"|\[[^\]]*\]|\\.|[_*].|([#0?][#0?,]*)/gsu;
/** A run of placeholders whose groups end in twos then three (trailing commas scale, and are no grouping). */
const LAKH_RUN = /,[#0?]{2},[#0?]{3}$/;

/**
 * The code SSF can draw for an Indian-grouped format (each lakh-grouped run as `#,##0`), or undefined
 * when the code asks for no such grouping, or asks for it in a way this cannot draw faithfully (zero
 * padding in the groups, a literal holding digits that the regrouping could take for the number).
 */
export function lakhGroupedCode(code: string): string | undefined {
  let lakh = false;
  let drawable = true;
  const rewritten = code.replace(TOKEN, (token, run: string | undefined) => {
    if (run === undefined) {
      if (token.startsWith('"') && /\d/.test(token)) drawable = false;
      return token;
    }
    const scaling = /,*$/.exec(run)![0];
    const grouped = run.slice(0, run.length - scaling.length);
    if (!LAKH_RUN.test(grouped)) return run;
    lakh = true;
    const placeholders = grouped.replace(/,/g, '');
    if (/\?/.test(placeholders) || (placeholders.match(/0/g)?.length ?? 0) > 1) drawable = false;
    return `#,##${placeholders.endsWith('0') ? '0' : '#'}${scaling}`;
  });
  return lakh && drawable ? rewritten : undefined;
}

/** The number in text SSF drew with grouping in threes (1,250,000.50), regrouped the Indian way (12,50,000.50). */
export function regroupLakhs(text: string): string {
  return text.replace(/\d{1,3}(?:,\d{3})+/, (western) => {
    const digits = western.replace(/,/g, '');
    const head = digits.slice(0, -3);
    return `${head.replace(/\B(?=(\d{2})+$)/g, ',')},${digits.slice(-3)}`;
  });
}
