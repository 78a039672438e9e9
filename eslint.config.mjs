// @ts-check
import eslint from '@eslint/js';
import tseslint from 'typescript-eslint';
import prettier from 'eslint-config-prettier';

export default tseslint.config(
  {
    ignores: [
      'dist/**',
      'web/dist/**',
      // generated from the OpenAPI document (scripts/generate-client.js)
      'web/src/api/schema.ts',
      'node_modules/**',
      'coverage/**',
      '.data/**',
      'jest.config.js',
      'jest.web.config.js',
      'eslint.config.mjs',
    ],
  },
  eslint.configs.recommended,
  ...tseslint.configs.recommendedTypeChecked,
  prettier,
  {
    languageOptions: {
      parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname },
    },
    rules: {
      '@typescript-eslint/no-explicit-any': 'error',
      '@typescript-eslint/no-floating-promises': 'error',
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_' }],
      '@typescript-eslint/require-await': 'off',
      '@typescript-eslint/no-extraneous-class': 'off',
      '@typescript-eslint/unbound-method': 'off',
    },
  },
  {
    // Money is numeric in PostgreSQL: the money module computes nothing in floating point.
    // Sums, differences, roundings and comparisons of amounts are written in its SQL; the code
    // only moves the database's numeric text around (docs/cobros.md, "Money is numeric"). The
    // stock's quantities, costs and values follow the same rule (docs/inventario.md), and so do
    // the kitchen's quantities sent (docs/cocina.md).
    // The receipt's layout counts characters, not soles: it is the one file exempted.
    files: ['src/cobros/**/*.ts', 'src/inventario/**/*.ts', 'src/cocina/**/*.ts'],
    ignores: [
      'src/cobros/receipt.ts',
      'src/cobros/**/*.spec.ts',
      'src/inventario/**/*.spec.ts',
      'src/cocina/**/*.spec.ts',
    ],
    rules: {
      'no-restricted-syntax': [
        'error',
        {
          selector: 'BinaryExpression[operator=/^[-*/%]$|^\\*\\*$/]',
          message: 'No arithmetic on money here: compute it in SQL (docs/cobros.md).',
        },
        {
          selector:
            "BinaryExpression[operator='+']:not([left.type='Literal']):not([right.type='Literal']):not([left.type='TemplateLiteral']):not([right.type='TemplateLiteral'])",
          message: 'No arithmetic on money here: compute it in SQL (docs/cobros.md).',
        },
        {
          selector: 'AssignmentExpression[operator=/^[-+*/%]=$/], UpdateExpression',
          message: 'No arithmetic on money here: compute it in SQL (docs/cobros.md).',
        },
        {
          selector: "CallExpression[callee.object.name='Math']",
          message: 'No arithmetic on money here: compute it in SQL (docs/cobros.md).',
        },
        {
          selector: "BinaryExpression[operator=/^[<>]=?$/]:not([left.property.name='length'])",
          message: 'Compare amounts in SQL (a boolean column), not as JavaScript numbers.',
        },
      ],
    },
  },
  {
    files: ['test/**/*.ts', 'src/**/*.spec.ts', 'web/src/**/*.spec.ts'],
    rules: {
      '@typescript-eslint/no-unsafe-member-access': 'off',
      '@typescript-eslint/no-unsafe-assignment': 'off',
      '@typescript-eslint/no-unsafe-argument': 'off',
      '@typescript-eslint/no-unsafe-call': 'off',
      '@typescript-eslint/no-unsafe-return': 'off',
    },
  },
  {
    // benchmark and build scripts: plain CommonJS run by node (against the compiled dist/)
    files: ['bench/**/*.js', 'scripts/**/*.js'],
    ...tseslint.configs.disableTypeChecked,
    languageOptions: {
      ...tseslint.configs.disableTypeChecked.languageOptions,
      sourceType: 'commonjs',
      globals: {
        require: 'readonly',
        process: 'readonly',
        console: 'readonly',
        __dirname: 'readonly',
        module: 'writable',
      },
    },
    rules: {
      ...tseslint.configs.disableTypeChecked.rules,
      '@typescript-eslint/no-require-imports': 'off',
    },
  },
);
