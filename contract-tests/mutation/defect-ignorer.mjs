/**
 * A Stryker ignorer: the conformance market's defect switches are not mutated. `has('no-dedupe')`,
 * `flaws.textNumbers`, `input.lenientSignature` are false in the market certify passes; mutating one
 * to `true` turns on a defect that a committed broken variant already proves certify catches
 * (test/fixtures/conformance-market/variants.ts), and to `false` changes nothing (equivalent). The
 * code only a defect runs is reported by Stryker as "no coverage" (the good market never runs it).
 * Written as a plain plugin object (kind "Ignore") so it needs no import of @stryker-mutator/api.
 */
const FLAW_HOLDERS = new Set(['flaws', 'validationFlaws', 'claimFlaws']);
const FLAW_INPUTS = /^(skip|lenient)[A-Z]/;

function isDefectSwitch(node) {
  if (node.type === 'CallExpression') return node.callee.type === 'Identifier' && node.callee.name === 'has';
  if (node.type !== 'MemberExpression' || node.property.type !== 'Identifier') return false;
  const object = node.object;
  if (object.type === 'Identifier' && FLAW_HOLDERS.has(object.name)) return true;
  if (object.type === 'MemberExpression' && object.property.type === 'Identifier')
    return FLAW_HOLDERS.has(object.property.name);
  return object.type === 'Identifier' && object.name === 'input' && FLAW_INPUTS.test(node.property.name);
}

export const strykerPlugins = [
  {
    kind: 'Ignore',
    name: 'defect-switches',
    value: {
      shouldIgnore(path) {
        if (isDefectSwitch(path.node))
          return 'a defect switch of the conformance market (variants.ts covers it)';
        // `switch && …` is false whenever the switch is: replacing it by `false` is equivalent (the
        // first run's survivor webhook.ts:50, mutation/survivors.md).
        if (path.isLogicalExpression({ operator: '&&' }) && isDefectSwitch(path.node.left))
          return 'a conjunction led by a defect switch, false in the market certify passes';
        // The object literals that hand the switches on (`flaws: { noDedupe: has('no-dedupe') }`).
        if (path.isObjectExpression() && path.parentPath?.isObjectProperty()) {
          const key = path.parentPath.node.key;
          if (key.type === 'Identifier' && FLAW_HOLDERS.has(key.name)) return 'the defect switches';
        }
        if (
          path.isVariableDeclarator() &&
          path.node.id.type === 'Identifier' &&
          FLAW_HOLDERS.has(path.node.id.name)
        )
          return 'the defect switches';
        return undefined;
      },
    },
  },
];
