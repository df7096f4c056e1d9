export declare function electronBinary(): { path: string } | { path: null; reason: string };
