export declare const SOURCE: string;
export declare const OUTPUT: string;
export declare function reduceToBrazil(full: Record<string, unknown>): Record<string, unknown>;
export declare function loadSource(): Record<string, unknown>;
export declare function renderBrazilMetadata(full?: Record<string, unknown>): string;
