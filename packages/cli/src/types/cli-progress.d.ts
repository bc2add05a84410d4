// The few parts of cli-progress 3.12 the CLI uses (the package ships no types).
declare module 'cli-progress' {
  interface BarOptions {
    stream?: NodeJS.WritableStream;
    format?: string;
    barsize?: number;
    hideCursor?: boolean;
    clearOnComplete?: boolean;
    stopOnComplete?: boolean;
    etaBuffer?: number;
    fps?: number;
  }
  class SingleBar {
    constructor(options: BarOptions, preset?: unknown);
    start(total: number, startValue: number, payload?: Record<string, unknown>): void;
    update(value: number, payload?: Record<string, unknown>): void;
    increment(step?: number, payload?: Record<string, unknown>): void;
    stop(): void;
  }
  const Presets: { shades_classic: unknown; shades_grey: unknown; legacy: unknown; rect: unknown };
  const cliProgress: { SingleBar: typeof SingleBar; Presets: typeof Presets };
  export default cliProgress;
}
