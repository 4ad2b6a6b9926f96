/**
 * The names a TypeScript entry file exports, read from its syntax. Entries list their exports by
 * name, so syntax is enough; an `export *` is reported as an error instead, because it makes the
 * surface depend on other files that nobody reviews as public API.
 */
import { readFileSync } from 'node:fs';
import ts from 'typescript';

export interface ExportedName {
  name: string;
  /** A type-only export exists at compile time only. */
  kind: 'type' | 'value';
}

function isExported(node: ts.Node): boolean {
  return (
    ts.canHaveModifiers(node) &&
    (ts.getModifiers(node) ?? []).some((m) => m.kind === ts.SyntaxKind.ExportKeyword)
  );
}

function declaredNames(statement: ts.Statement): ExportedName[] {
  if (ts.isInterfaceDeclaration(statement) || ts.isTypeAliasDeclaration(statement)) {
    return [{ name: statement.name.text, kind: 'type' }];
  }
  if (
    (ts.isFunctionDeclaration(statement) ||
      ts.isClassDeclaration(statement) ||
      ts.isEnumDeclaration(statement)) &&
    statement.name
  ) {
    return [{ name: statement.name.text, kind: 'value' }];
  }
  if (ts.isVariableStatement(statement)) {
    return statement.declarationList.declarations.flatMap((d) =>
      ts.isIdentifier(d.name) ? [{ name: d.name.text, kind: 'value' as const }] : [],
    );
  }
  return [];
}

export function exportedNames(file: string): ExportedName[] {
  const source = ts.createSourceFile(file, readFileSync(file, 'utf8'), ts.ScriptTarget.Latest, true);
  const names: ExportedName[] = [];
  for (const statement of source.statements) {
    if (ts.isExportDeclaration(statement)) {
      const clause = statement.exportClause;
      if (!clause || !ts.isNamedExports(clause)) {
        throw new Error(`${file}: \`export *\` hides the public surface; export each name explicitly`);
      }
      for (const element of clause.elements) {
        const typeOnly = statement.isTypeOnly || element.isTypeOnly;
        names.push({ name: element.name.text, kind: typeOnly ? 'type' : 'value' });
      }
    } else if (ts.isExportAssignment(statement)) {
      names.push({ name: 'default', kind: 'value' });
    } else if (isExported(statement)) {
      names.push(...declaredNames(statement));
    }
  }
  return names.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
}
