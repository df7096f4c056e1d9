export const MAX_FILE_BYTES: number;
export const MAX_BUNDLE_BYTES: number;
export function bundleSizeProblems(dir: string, mcpb?: string | null): Promise<string[]>;
