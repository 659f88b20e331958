// One lint config for every workspace. The boundary rules follow STYLE.md:
// web code flows shared -> features -> app; server routes/services/repositories stay in their lanes.
import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import importX from 'eslint-plugin-import-x';
import reactHooks from 'eslint-plugin-react-hooks';
import globals from 'globals';
import { createTypeScriptImportResolver } from 'eslint-import-resolver-typescript';
import { readdirSync } from 'node:fs';

const web = 'apps/web/src';
const webFeatures = readdirSync(new URL(`./${web}/features`, import.meta.url));
// The Kysely calls that start a query (on a Kysely instance, a transaction or an expression builder).
const kyselyQueryStarts = [
  'selectFrom',
  'selectNoFrom',
  'insertInto',
  'replaceInto',
  'updateTable',
  'deleteFrom',
  'mergeInto',
  'with',
  'withRecursive',
  'executeQuery',
];

export default tseslint.config(
  { ignores: ['**/dist/**', '**/node_modules/**', 'data/**', '.tmp/**', '**/coverage/**'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    plugins: { 'import-x': importX },
    settings: {
      'import-x/resolver-next': [
        createTypeScriptImportResolver({
          project: ['packages/contract/tsconfig.json', 'apps/server/tsconfig.json', 'apps/web/tsconfig.json'],
          noWarnOnMultipleProjects: true,
        }),
      ],
    },
    languageOptions: { globals: { ...globals.node } },
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      '@typescript-eslint/consistent-type-imports': 'error',
      'import-x/no-cycle': 'error',
    },
  },
  {
    files: ['apps/web/**/*.{ts,tsx}'],
    plugins: { 'react-hooks': reactHooks },
    languageOptions: { globals: { ...globals.browser } },
    rules: {
      ...reactHooks.configs.recommended.rules,
      'import-x/no-restricted-paths': [
        'error',
        {
          zones: [
            // features never import the app, nor each other: the app composes them
            { target: `${web}/features`, from: `${web}/app` },
            ...webFeatures.map((feature) => ({
              target: `${web}/features/${feature}`,
              from: `${web}/features`,
              except: [`./${feature}`],
              message:
                'Features never import each other: move shared code to src/components, hooks, lib or utils, or compose in src/app.',
            })),
            // shared code never imports features or the app
            {
              target: [`${web}/components`, `${web}/hooks`, `${web}/lib`, `${web}/utils`, `${web}/config`],
              from: [`${web}/features`, `${web}/app`],
            },
          ],
        },
      ],
    },
  },
  {
    files: ['apps/server/src/**/*.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            { group: ['**/apps/web/**', '@notice-desk/web*'], message: 'The server never imports web code.' },
          ],
        },
      ],
    },
  },
  {
    // migrations are frozen in time and typed loosely on purpose (STYLE.md)
    files: ['apps/server/src/db/migrations/*.ts'],
    rules: { '@typescript-eslint/no-explicit-any': 'off' },
  },
  {
    // services hold the rules and never see Fastify
    files: ['apps/server/src/modules/**/*.service.ts', 'apps/server/src/modules/**/*.repository.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        { paths: [{ name: 'fastify', message: 'Services and repositories never import Fastify.' }] },
      ],
    },
  },
  {
    // SQL lives in repositories (STYLE.md): services, routes and jobs call them and never build a query.
    files: ['apps/server/src/**/*.ts'],
    ignores: [
      'apps/server/src/**/*.repository.ts',
      'apps/server/src/db/**',
      'apps/server/src/**/*.test.ts',
      'apps/server/src/test/**',
    ],
    rules: {
      'no-restricted-syntax': [
        'error',
        // Any reach for a query start, on whatever name the database goes by (db, an alias, a transaction):
        // called or not (db.selectFrom, db['selectFrom']), or taken out of it (const { selectFrom } = db).
        ...[
          `MemberExpression > Identifier.property[name=/^(${kyselyQueryStarts.join('|')})$/]`,
          `MemberExpression[computed=true] > Literal.property[value=/^(${kyselyQueryStarts.join('|')})$/]`,
          `ObjectPattern > Property > .key[name=/^(${kyselyQueryStarts.join('|')})$/]`,
          `ObjectPattern > Property > Literal.key[value=/^(${kyselyQueryStarts.join('|')})$/]`,
        ].map((selector) => ({
          selector,
          message: 'Only repositories (*.repository.ts) build queries: call one, or add a function to one.',
        })),
        // sql and CompiledQuery by name, or anything of kysely's through a namespace (k.sql); types stay free.
        ...[
          "ImportDeclaration[source.value='kysely'][importKind!='type'] > ImportSpecifier[importKind!='type'][imported.name=/^(sql|CompiledQuery)$/]",
          "ImportDeclaration[source.value='kysely'][importKind!='type'] > ImportNamespaceSpecifier",
          "ImportExpression[source.value='kysely']",
        ].map((selector) => ({
          selector,
          message: 'Only repositories (*.repository.ts) write SQL: call one, or add a function to one.',
        })),
      ],
    },
  },
  {
    // only config/env.ts reads process.env
    files: ['apps/server/src/**/*.ts'],
    ignores: ['apps/server/src/config/env.ts', 'apps/server/src/**/*.test.ts', 'apps/server/src/test/**'],
    rules: {
      'no-restricted-properties': [
        'error',
        { object: 'process', property: 'env', message: 'Read configuration through config/env.ts.' },
      ],
    },
  },
);
