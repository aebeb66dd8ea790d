// What `npm run conformance` expects of each official conformance suite, scenario by scenario.
// A scenario listed in `pass` must pass every check. `partial` lists scenarios that must pass every
// check but the named ones, which cannot apply (the reason says why). Every other scenario it runs
// is left out, each for the reason given in `outOfScope` (by name prefix): it needs the suite's own
// sample tools, resources or prompts, or features this server does not offer.

const SAMPLE_TOOL = "calls one of the suite's sample tools (test_*), which a file server does not have";
const SAMPLE_RESOURCE = "reads one of the suite's sample resources (test://...), which a file server does not have";
const SAMPLE_PROMPT = 'needs prompts: this server offers none (no prompts capability, prompts/* is -32601 as the spec says)';

const outOfScope = {
  'tools-call-': SAMPLE_TOOL,
  'elicitation-': SAMPLE_TOOL,
  'json-schema-2020-12': SAMPLE_TOOL,
  'resources-read-': SAMPLE_RESOURCE,
  'resources-templates-read': SAMPLE_RESOURCE,
  'resources-subscribe': SAMPLE_RESOURCE,
  'resources-unsubscribe': SAMPLE_RESOURCE,
  'prompts-': SAMPLE_PROMPT,
  'input-required-result-': `${SAMPLE_TOOL} or sample prompt that asks the client for input (SEP-2322); no tool of ours asks the client anything`,
  'tasks-': 'the tasks extension (SEP-2663), which this server does not declare',
  'http-custom-header-server-validation': 'needs a tool whose input schema carries x-mcp-header annotations (SEP-2243); none of ours does',
};

const completionPrompt = [
  'completion-complete',
  'completes an argument of the sample prompt test_prompt_with_arguments; for a prompt it does not have the server answers -32602, as the spec asks',
];

export const SUITES = {
  '0.1.16': {
    label: '0.1.16 (2025 revisions)',
    args: [],
    pass: ['server-initialize', 'logging-set-level', 'ping', 'tools-list', 'tools-call-simple-text', 'tools-call-error', 'server-sse-multiple-streams', 'resources-list', 'dns-rebinding-protection'],
    partial: {},
    // On 0.1.16 completion-complete has just the one check, so the whole scenario is out.
    outOfScope: { ...outOfScope, 'completion-complete': completionPrompt[1] },
  },
  '0.2.0-alpha.12': {
    label: '0.2.0-alpha.12 (2026-07-28 requirements)',
    args: ['--requirements', '2026-07-28'],
    pass: [
      'tools-list',
      'tools-call-simple-text',
      'tools-call-error',
      'resources-list',
      'sep-2164-resource-not-found',
      'server-sse-multiple-streams',
      'dns-rebinding-protection',
      'http-header-validation',
      'input-required-result-unsupported-methods',
      'input-required-result-ignore-extra-params',
    ],
    partial: {
      'server-stateless': {
        'sep-2575-server-rejects-undeclared-capability': `${SAMPLE_TOOL} (test_missing_capability)`,
        'sep-2575-missing-capability-http-400': `${SAMPLE_TOOL} (test_missing_capability)`,
        'sep-2575-server-sends-prompts-list-changed-on-subscription': 'SHOULD for list-changed-capable servers; prompts are not offered (skipped by the suite)',
        'sep-2575-server-sends-tools-list-changed-on-subscription': 'SHOULD for list-changed-capable servers; the tool list never changes (skipped by the suite)',
      },
      caching: { 'sep-2549-prompts-list-caching-hints': SAMPLE_PROMPT },
      'completion-complete': { [completionPrompt[0]]: completionPrompt[1] },
    },
    outOfScope,
  },
};

/** Why a scenario is left out, or undefined when nothing says it may be. */
export function outOfScopeReason(suite, scenario) {
  const entry = Object.entries(suite.outOfScope).find(([prefix]) => scenario === prefix || (prefix.endsWith('-') && scenario.startsWith(prefix)));
  return entry?.[1];
}
