// A neutral silhouette inlined as a data URI, so the header fetches nothing.
const avatarSvg =
  "<svg xmlns='http://www.w3.org/2000/svg' viewBox='0 0 40 40'>" +
  "<rect width='40' height='40' rx='20' fill='#dbe4f5'/>" +
  "<circle cx='20' cy='16' r='7' fill='#0b3a8c'/>" +
  "<path d='M6 35c2.5-7 8-10 14-10s11.5 3 14 10' fill='#0b3a8c'/>" +
  '</svg>';

export const avatarSrc = `data:image/svg+xml,${encodeURIComponent(avatarSvg)}`;
