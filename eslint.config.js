import { readdirSync } from 'node:fs'
import js from '@eslint/js'
import globals from 'globals'
import reactHooks from 'eslint-plugin-react-hooks'
import tseslint from 'typescript-eslint'

export default tseslint.config(
  {
    ignores: [
      '**/node_modules/**',
      '**/dist/**',
      'data/**',
      '**/test-results/**',
      '**/playwright-report/**',
      'apps/server/src/db/migrations/**',
    ],
  },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: { globals: { ...globals.node } },
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      '@typescript-eslint/consistent-type-imports': 'error',
    },
  },
  // The shared contract and the ledger are leaves: they import nothing of ours.
  {
    files: ['packages/**/*.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              group: ['@circles/server', '@circles/web', '**/apps/**'],
              message: 'packages/* must not depend on apps.',
            },
          ],
        },
      ],
    },
  },
  // Server modules expose their service; another module never reaches into a repository.
  {
    files: ['apps/server/src/modules/**/*.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              group: ['../*/*.repository', '../*/*.repository.ts'],
              message: "Use the other module's service, not its repository.",
            },
            { group: ['@circles/web', '**/apps/web/**'], message: 'The server never imports the web app.' },
          ],
        },
      ],
    },
  },
  {
    files: ['apps/web/**/*.{ts,tsx}'],
    languageOptions: { globals: { ...globals.browser } },
    plugins: { 'react-hooks': reactHooks },
    rules: {
      ...reactHooks.configs.recommended.rules,
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              group: ['@circles/server', '**/apps/server/**'],
              message: 'The web app talks to the server over HTTP only.',
            },
          ],
        },
      ],
    },
  },
  // One-way imports in the web app: lib/components <- features <- app; no feature reaches into another.
  // One block per feature and folder depth, since a rule's options do not merge across blocks.
  ...readdirSync(new URL('./apps/web/src/features', import.meta.url)).flatMap((feature) =>
    [0, 1, 2, 3].map((depth) => {
      const up = '../'.repeat(depth + 1)
      return {
        files: [`apps/web/src/features/${feature}/${'*/'.repeat(depth)}*.{ts,tsx}`],
        rules: {
          'no-restricted-imports': [
            'error',
            {
              patterns: [
                {
                  group: ['@/app/*', `${up}../app/*`],
                  message: 'Features must not import the app layer.',
                },
                {
                  group: [
                    '@/features/*',
                    '@/features/*/**',
                    `!@/features/${feature}`,
                    `!@/features/${feature}/**`,
                    `${up}*`,
                    `${up}*/**`,
                  ],
                  message: "A feature must not import another feature's internals.",
                },
              ],
            },
          ],
        },
      }
    }),
  ),
  // Every request that changes something goes through the guarded mutation: a second press is ignored
  // while the first runs (docs/decisions/0028).
  {
    files: ['apps/web/src/**/*.{ts,tsx}'],
    ignores: ['apps/web/src/lib/use-guarded-mutation.ts', 'apps/web/src/**/*.test.{ts,tsx}'],
    rules: {
      'no-restricted-syntax': [
        'error',
        {
          selector:
            "ImportDeclaration[source.value='@tanstack/react-query'] > ImportSpecifier[imported.name='useMutation']",
          message: 'Use useGuardedMutation from @/lib/use-guarded-mutation: it ignores a second press.',
        },
      ],
    },
  },
)
