import { requestedLanguage } from './language';

describe('requestedLanguage (Accept-Language)', () => {
  it.each([
    ['es', 'es'],
    ['es-PE', 'es'],
    ['ES-pe', 'es'],
    ['es-419,en;q=0.5', 'es'],
    ['en;q=0.8, es', 'es'],
    ['es-PE,es;q=0.9,en;q=0.8', 'es'],
    ['fr, es;q=0.5', 'es'],
    ['*, en;q=0', 'es'],
    ['*, es', 'es'],
    ['es, *', 'es'],
  ])('%j answers Spanish', (header, language) => {
    expect(requestedLanguage(header)).toBe(language);
  });

  it.each([
    [undefined],
    [''],
    ['en'],
    ['en-US,en;q=0.9'],
    ['en, es'],
    ['es;q=0.5, en'],
    ['es;q=0'],
    ['es;q=0, *'],
    ['fr'],
    ['*'],
    ['pt-BR, fr;q=0.5'],
    ['esperanto'],
    ['es;q=abc, en'],
    [';;;'],
  ])('%j answers English', (header) => {
    expect(requestedLanguage(header)).toBe('en');
  });

  it('reads a header sent twice as one list', () => {
    expect(requestedLanguage(['fr', 'es'])).toBe('es');
  });
});
