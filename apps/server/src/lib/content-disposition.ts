/** A download's Content-Disposition: the plain name for old clients, the UTF-8 name for the rest. */
export const attachment = (name: string): string =>
  `attachment; filename="${name.replace(/[^\x20-\x7e]|"/g, '_')}"; filename*=UTF-8''${encodeURIComponent(name)}`;
