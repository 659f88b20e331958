/** True when apps/server/dist was built from the sources as they are now. */
export function isServerBuildFresh(): boolean;
/** Compiles the server to apps/server/dist; answers the number of files compiled. */
export function buildServer(): Promise<number>;
export const serverDist: string;
