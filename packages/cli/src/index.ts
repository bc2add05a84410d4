export { runCli, mainHelp, processIo, type CommandHandler } from './run-cli.js';
export { resolveSettings, strategyNames, configFileName, defaultStorePath, type Settings, type SettingFlags, type StrategyName } from './cli-settings.js';
export { UsageError, CliError, exitCodes } from './cli-errors.js';
export type { CliIo, OutputStream } from './output/terminal.js';
export { startPlayground, openPlaygroundApi, isLocalRequest, type StartPlaygroundOptions, type RunningPlayground } from './playground/start-playground.js';
export type { PlaygroundApi } from './playground/playground-api.js';
export * from './playground/playground-types.js';
