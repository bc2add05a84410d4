export { createModelDistiller, type ModelDistiller, type ModelDistillerOptions, type DistillerEvent, type DistillerStats } from './distill/model-distiller.js';
export { modelBatchSchema, type ModelBatch } from './distill/distill-schema.js';
export { createModelNavigator, type ModelNavigatorOptions } from './navigate/model-navigator.js';
export { navigationTools } from './navigate/navigation-tools.js';
export { createModelAnswerer, createModelJudge, type ModelAnswererOptions, type ModelJudgeOptions } from './answer/model-answerer.js';
export { engramTools, type EngramTools, type EngramToolsOptions } from './engram-tools.js';
export { callModel, describeModel, type ModelCallOptions, type RetryOptions } from './call-model.js';
export { createUsageMeter, emptyUsage, usageSince, modelRoles, type ModelRole, type ModelUsage, type UsageMeter } from './usage-meter.js';
export {
  createLanguageModel,
  createEmbeddingModel,
  parseModelSpec,
  resolveModelChoices,
  modelEnvironmentVariables,
  providerKinds,
  type ModelSpec,
  type ModelChoices,
  type ModelChoiceRole,
  type ProviderKind,
} from './providers.js';
export { createModelSuite, type ModelSuite, type ModelSuiteOptions } from './model-suite.js';
