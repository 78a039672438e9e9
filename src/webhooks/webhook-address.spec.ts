import dns, { type LookupAddress } from 'node:dns';
import { BlockList } from 'node:net';
import fc from 'fast-check';
import {
  checkWebhookUrl,
  guardedLookup,
  isDisallowedAddress,
  WEBHOOK_ADDRESS_NOT_ALLOWED,
  WebhookUrlError,
} from './webhook-address';

const PRODUCTION = { production: true, allowPrivate: false };
const DEVELOPMENT = { production: false, allowPrivate: false };
const LOCAL = { production: false, allowPrivate: true };

/** The reason of the WebhookUrlError `work` rejects with (fails the test on anything else). */
async function reason(work: Promise<unknown>): Promise<string> {
  const error = await work.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(WebhookUrlError);
  return (error as WebhookUrlError).reason;
}

/** dns.promises.lookup answering `answer` (addresses, or an error code to fail with). */
function resolvesTo(answer: LookupAddress[] | string) {
  return jest.spyOn(dns.promises, 'lookup').mockImplementation((async () => {
    if (typeof answer !== 'string') return answer;
    throw Object.assign(new Error(`getaddrinfo ${answer} hooks.example.com`), { code: answer });
  }) as unknown as typeof dns.promises.lookup);
}

afterEach(() => jest.restoreAllMocks());

describe('isDisallowedAddress', () => {
  it.each([
    ['0.0.0.0/8', ['0.0.0.0', '0.255.255.255'], ['1.0.0.0']],
    ['10.0.0.0/8', ['10.0.0.0', '10.255.255.255'], ['9.255.255.255', '11.0.0.0']],
    ['100.64.0.0/10', ['100.64.0.0', '100.127.255.255'], ['100.63.255.255', '100.128.0.0']],
    ['127.0.0.0/8', ['127.0.0.1', '127.255.255.255'], ['126.255.255.255', '128.0.0.0']],
    ['169.254.0.0/16', ['169.254.0.0', '169.254.169.254'], ['169.253.255.255', '169.255.0.0']],
    ['172.16.0.0/12', ['172.16.0.0', '172.31.255.255'], ['172.15.255.255', '172.32.0.0']],
    ['192.0.0.0/24', ['192.0.0.0', '192.0.0.255'], ['191.255.255.255', '192.0.1.0']],
    ['192.168.0.0/16', ['192.168.0.0', '192.168.255.255'], ['192.167.255.255', '192.169.0.0']],
    ['198.18.0.0/15', ['198.18.0.0', '198.19.255.255'], ['198.17.255.255', '198.20.0.0']],
    ['224.0.0.0/4', ['224.0.0.0', '239.255.255.255'], ['223.255.255.255']],
    ['240.0.0.0/4', ['240.0.0.0', '255.255.255.254', '255.255.255.255'], []],
  ])('refuses the IPv4 range %s and allows its neighbours', (_range, inside, outside) => {
    for (const ip of inside) expect([ip, isDisallowedAddress(ip)]).toEqual([ip, true]);
    for (const ip of outside) expect([ip, isDisallowedAddress(ip)]).toEqual([ip, false]);
  });

  it('allows public IPv4 addresses', () => {
    for (const ip of ['8.8.8.8', '1.1.1.1', '93.184.215.14', '200.48.225.130', '172.217.0.46']) {
      expect([ip, isDisallowedAddress(ip)]).toEqual([ip, false]);
    }
  });

  it('refuses the unspecified, loopback, unique-local, link-local and multicast IPv6 ranges', () => {
    const refused = [
      '::',
      '::1',
      '0:0:0:0:0:0:0:1',
      'fc00::1',
      'fdff:ffff:ffff:ffff:ffff:ffff:ffff:ffff',
      'fe80::1',
      'fe80::1%eth0',
      'febf:ffff::1',
      'fec0::1',
      'ff00::',
      'ff02::1',
      'FF05::1:3',
    ];
    for (const ip of refused) expect([ip, isDisallowedAddress(ip)]).toEqual([ip, true]);
    const allowed = [
      '2001:4860:4860::8888',
      '2606:4700:4700::1111',
      'fbff::1',
      'fe7f::1',
      '2a00:1450:4001:82b::200e',
    ];
    for (const ip of allowed) expect([ip, isDisallowedAddress(ip)]).toEqual([ip, false]);
  });

  it('judges IPv4-mapped and IPv4-compatible IPv6 addresses as their IPv4 address', () => {
    const refused = [
      '::ffff:127.0.0.1',
      '::ffff:7f00:1',
      '0:0:0:0:0:ffff:7f00:0001',
      '::FFFF:10.0.0.5',
      '::ffff:a9fe:a9fe', // 169.254.169.254
      '::ffff:0.0.0.0',
      '::127.0.0.1',
      '::7f00:1',
      '::ffff:c0a8:101', // 192.168.1.1
    ];
    for (const ip of refused) expect([ip, isDisallowedAddress(ip)]).toEqual([ip, true]);
    const allowed = ['::ffff:8.8.8.8', '::ffff:808:808', '::8.8.8.8'];
    for (const ip of allowed) expect([ip, isDisallowedAddress(ip)]).toEqual([ip, false]);
  });

  it('judges NAT64 and 6to4 addresses by the IPv4 address they carry', () => {
    expect(isDisallowedAddress('64:ff9b::10.0.0.5')).toBe(true);
    expect(isDisallowedAddress('64:ff9b::7f00:1')).toBe(true);
    expect(isDisallowedAddress('64:ff9b::8.8.8.8')).toBe(false);
    expect(isDisallowedAddress('2002:7f00:1::1')).toBe(true);
    expect(isDisallowedAddress('2002:c0a8:101::')).toBe(true);
    expect(isDisallowedAddress('2002:808:808::1')).toBe(false);
  });

  it('refuses text that is not an IP address', () => {
    for (const text of ['', 'localhost', '127.0.0.1.', '0x7f.1', '2130706433', '[::1]', '1.2.3']) {
      expect([text, isDisallowedAddress(text)]).toEqual([text, true]);
    }
  });

  it("agrees with node:net's BlockList on any IPv4 address, written plain, mapped or in hex", () => {
    const reference = new BlockList();
    for (const [network, prefix] of [
      ['0.0.0.0', 8],
      ['10.0.0.0', 8],
      ['100.64.0.0', 10],
      ['127.0.0.0', 8],
      ['169.254.0.0', 16],
      ['172.16.0.0', 12],
      ['192.0.0.0', 24],
      ['192.168.0.0', 16],
      ['198.18.0.0', 15],
      ['224.0.0.0', 4],
      ['240.0.0.0', 4],
    ] as const) {
      reference.addSubnet(network, prefix, 'ipv4');
    }
    // a quarter of the draws land in a refused range's first octet, to test edges often
    const octet = fc.oneof(
      fc.integer({ min: 0, max: 255 }),
      fc.constantFrom(0, 10, 100, 127, 169, 172, 192, 198, 224, 240, 255),
    );
    fc.assert(
      fc.property(fc.tuple(octet, octet, octet, octet), ([a, b, c, d]) => {
        const ip = `${a}.${b}.${c}.${d}`;
        const hex = `${((a << 8) | b).toString(16)}:${((c << 8) | d).toString(16)}`;
        const expected = reference.check(ip, 'ipv4');
        expect(isDisallowedAddress(ip)).toBe(expected);
        expect(isDisallowedAddress(`::ffff:${ip}`)).toBe(expected);
        expect(isDisallowedAddress(`::ffff:${hex}`)).toBe(expected);
      }),
      { numRuns: 2000 },
    );
  });

  it("agrees with node:net's BlockList on IPv6 addresses, written in full or compressed", () => {
    const reference = new BlockList();
    for (const [network, prefix] of [
      ['fc00::', 7],
      ['fe80::', 10],
      ['fec0::', 10],
      ['ff00::', 8],
    ] as const) {
      reference.addSubnet(network, prefix, 'ipv6');
    }
    // the first group is never 0, 64 or 2002: those carry IPv4 addresses, tested above
    const first = fc.oneof(
      fc.integer({ min: 1, max: 0xffff }),
      fc.constantFrom(0xfbff, 0xfc00, 0xfdff, 0xfe00, 0xfe7f, 0xfe80, 0xfebf, 0xfec0, 0xff00),
    );
    const group = fc.oneof(fc.integer({ min: 0, max: 0xffff }), fc.constant(0));
    fc.assert(
      fc.property(
        first.filter((g) => g !== 0x64 && g !== 0x2002),
        fc.array(group, { minLength: 7, maxLength: 7 }),
        (head, rest) => {
          const full = [head, ...rest].map((g) => g.toString(16)).join(':');
          const compressed = new URL(`http://[${full}]/`).hostname.slice(1, -1);
          const expected = reference.check(full, 'ipv6');
          expect([full, isDisallowedAddress(full)]).toEqual([full, expected]);
          expect([compressed, isDisallowedAddress(compressed)]).toEqual([compressed, expected]);
        },
      ),
      { numRuns: 2000 },
    );
  });
});

describe('checkWebhookUrl', () => {
  it('returns the parsed URL of an https endpoint with public addresses', async () => {
    const lookup = resolvesTo([
      { address: '93.184.215.14', family: 4 },
      { address: '2606:2800:21f:cb07:6820:80da:af6b:8b2c', family: 6 },
    ]);
    const url = await checkWebhookUrl('https://hooks.example.com:8443/comandas?k=1', PRODUCTION);
    expect(url.href).toBe('https://hooks.example.com:8443/comandas?k=1');
    expect(lookup).toHaveBeenCalledWith('hooks.example.com', { all: true, verbatim: true });
  });

  it('refuses what is not an absolute URL, and URLs over 2048 characters', async () => {
    expect(await reason(checkWebhookUrl('hooks.example.com/x', PRODUCTION))).toBe(
      'not a valid absolute URL',
    );
    expect(await reason(checkWebhookUrl('/webhooks', PRODUCTION))).toBe('not a valid absolute URL');
    expect(await reason(checkWebhookUrl('', PRODUCTION))).toBe('not a valid absolute URL');
    const long = `https://hooks.example.com/${'a'.repeat(2048)}`;
    expect(await reason(checkWebhookUrl(long, PRODUCTION))).toBe(
      'the URL is longer than 2048 characters',
    );
  });

  it('accepts only http and https, and only https in production', async () => {
    for (const raw of ['ftp://hooks.example.com/', 'file:///etc/passwd', 'javascript:alert(1)']) {
      expect(await reason(checkWebhookUrl(raw, DEVELOPMENT))).toBe(
        'the scheme must be http or https',
      );
    }
    expect(await reason(checkWebhookUrl('http://93.184.215.14/hook', PRODUCTION))).toBe(
      'the scheme must be https',
    );
    const url = await checkWebhookUrl('http://93.184.215.14/hook', DEVELOPMENT);
    expect(url.protocol).toBe('http:');
  });

  it('refuses a user name or password in the URL', async () => {
    for (const raw of ['https://user:pass@93.184.215.14/', 'https://user@93.184.215.14/']) {
      expect(await reason(checkWebhookUrl(raw, PRODUCTION))).toBe(
        'the URL must not carry a user name or password',
      );
    }
  });

  it('judges a literal IP host without DNS, in any of the forms the URL parser reads', async () => {
    const lookup = jest.spyOn(dns.promises, 'lookup');
    const cases = [
      ['https://127.0.0.1/hook', '127.0.0.1'],
      ['https://2130706433/hook', '127.0.0.1'],
      ['https://0x7f.1/hook', '127.0.0.1'],
      ['https://169.254.169.254/latest/meta-data/', '169.254.169.254'],
      ['https://10.0.0.5:8080/', '10.0.0.5'],
      ['https://[::1]/hook', '::1'],
      ['https://[::ffff:127.0.0.1]/hook', '::ffff:7f00:1'],
      ['https://[fd00::5]/hook', 'fd00::5'],
    ];
    for (const [raw, address] of cases) {
      expect(await reason(checkWebhookUrl(raw, PRODUCTION))).toBe(
        `the host is a private address (${address})`,
      );
      await expect(checkWebhookUrl(raw, { production: true, allowPrivate: true })).resolves.toEqual(
        new URL(raw),
      );
    }
    await expect(checkWebhookUrl('https://[2606:4700::1111]/', PRODUCTION)).resolves.toBeInstanceOf(
      URL,
    );
    expect(lookup).not.toHaveBeenCalled();
  });

  it('refuses localhost, which resolves to the loopback, unless private addresses are allowed', async () => {
    expect(await reason(checkWebhookUrl('http://localhost:3000/hook', DEVELOPMENT))).toMatch(
      /^the host resolves to a private address \((127\.0\.0\.1|::1)\)$/,
    );
    const url = await checkWebhookUrl('http://localhost:3000/hook', LOCAL);
    expect(url.host).toBe('localhost:3000');
    // https in production does not lift the address rules
    expect(await reason(checkWebhookUrl('https://localhost/hook', PRODUCTION))).toMatch(
      /resolves to a private address/,
    );
  });

  it('refuses a name when any one of its addresses is private', async () => {
    resolvesTo([
      { address: '93.184.215.14', family: 4 },
      { address: '10.0.0.5', family: 4 },
    ]);
    expect(await reason(checkWebhookUrl('https://hooks.example.com/', PRODUCTION))).toBe(
      'the host resolves to a private address (10.0.0.5)',
    );
    resolvesTo([{ address: '::ffff:192.168.1.10', family: 6 }]);
    expect(await reason(checkWebhookUrl('https://hooks.example.com/', PRODUCTION))).toBe(
      'the host resolves to a private address (::ffff:192.168.1.10)',
    );
    await expect(
      checkWebhookUrl('https://hooks.example.com/', { production: true, allowPrivate: true }),
    ).resolves.toBeInstanceOf(URL);
  });

  it('refuses a host that does not resolve, even when private addresses are allowed', async () => {
    resolvesTo('ENOTFOUND');
    expect(await reason(checkWebhookUrl('https://hooks.example.com/', LOCAL))).toBe(
      'the host hooks.example.com does not resolve (ENOTFOUND)',
    );
    resolvesTo([]);
    expect(await reason(checkWebhookUrl('https://hooks.example.com/', PRODUCTION))).toBe(
      'the host hooks.example.com does not resolve (no address)',
    );
  });
});

describe('guardedLookup', () => {
  type Answer = { error: NodeJS.ErrnoException | null; address: unknown; family?: number };

  function ask(allowPrivate: boolean, host: string, options: dns.LookupOptions) {
    return new Promise<Answer>((resolve) =>
      guardedLookup(allowPrivate)(host, options, (error, address, family) =>
        resolve({ error, address, family }),
      ),
    );
  }

  /** dns.lookup answering `addresses` (always asked for all of them). */
  function dnsAnswers(addresses: LookupAddress[]) {
    return jest.spyOn(dns, 'lookup').mockImplementation(((
      _host: string,
      options: dns.LookupAllOptions,
      callback: (error: null, addresses: LookupAddress[]) => void,
    ) => {
      expect(options.all).toBe(true);
      callback(null, addresses);
    }) as unknown as typeof dns.lookup);
  }

  it('refuses localhost unless private addresses are allowed, in both answer forms', async () => {
    for (const options of [{}, { all: true }, { family: 4 }]) {
      const refused = await ask(false, 'localhost', options);
      expect(refused.error?.code).toBe(WEBHOOK_ADDRESS_NOT_ALLOWED);
      expect(refused.error?.message).toMatch(/^the host resolves to a private address/);
    }
    const one = await ask(true, 'localhost', { family: 4 });
    expect(one).toEqual({ error: null, address: '127.0.0.1', family: 4 });
    const all = await ask(true, 'localhost', { all: true, family: 4 });
    expect(all).toEqual({
      error: null,
      address: [{ address: '127.0.0.1', family: 4 }],
      family: undefined,
    });
  });

  it('refuses a name when any one of its addresses is private', async () => {
    dnsAnswers([
      { address: '93.184.215.14', family: 4 },
      { address: 'fe80::1', family: 6 },
    ]);
    const refused = await ask(false, 'hooks.example.com', { all: true });
    expect(refused.error?.code).toBe(WEBHOOK_ADDRESS_NOT_ALLOWED);
    expect(refused.error?.message).toBe('the host resolves to a private address (fe80::1)');
  });

  it('answers public addresses as dns.lookup would', async () => {
    const addresses = [
      { address: '2606:2800:21f:cb07:6820:80da:af6b:8b2c', family: 6 },
      { address: '93.184.215.14', family: 4 },
    ];
    dnsAnswers(addresses);
    expect(await ask(false, 'hooks.example.com', { all: true })).toEqual({
      error: null,
      address: addresses,
      family: undefined,
    });
    expect(await ask(false, 'hooks.example.com', {})).toEqual({
      error: null,
      address: '2606:2800:21f:cb07:6820:80da:af6b:8b2c',
      family: 6,
    });
  });

  it("passes on DNS's own errors", async () => {
    jest
      .spyOn(dns, 'lookup')
      .mockImplementation(((
        _host: string,
        _options: unknown,
        callback: (error: NodeJS.ErrnoException) => void,
      ) =>
        callback(
          Object.assign(new Error('getaddrinfo ENOTFOUND x'), { code: 'ENOTFOUND' }),
        )) as unknown as typeof dns.lookup);
    const answer = await ask(false, 'hooks.example.com', {});
    expect(answer.error?.code).toBe('ENOTFOUND');
  });
});
