/** The rules of the secrets staff sign in with (docs/sign-in.md, "Credentials"). */

export const PASSWORD_MIN_LENGTH = 10;
/** Bounds the work of one hash; longer passphrases are not refused, they are rare. */
export const PASSWORD_MAX_LENGTH = 200;
export const PIN_PATTERN = /^\d{4,6}$/;

/** Why a password is refused, or undefined when it is acceptable. */
export function passwordProblem(password: string): string | undefined {
  const length = [...password].length;
  if (length < PASSWORD_MIN_LENGTH)
    return `password must be at least ${PASSWORD_MIN_LENGTH} characters long`;
  if (length > PASSWORD_MAX_LENGTH)
    return `password must be at most ${PASSWORD_MAX_LENGTH} characters long`;
  if (new Set(password).size === 1) return 'password must not be one character repeated';
  return undefined;
}

/**
 * PINs anyone tries first: lists of the most common 4-digit PINs put these at the top (one
 * digit repeated, straight runs up or down, a pair repeated, a number pad's column).
 */
const COMMON_PINS = new Set(['2580', '0852', '1004', '2000', '6969', '1122', '1313', '4321']);

/** Why a PIN is refused, or undefined when it is acceptable. */
export function pinProblem(pin: string): string | undefined {
  if (!PIN_PATTERN.test(pin)) return 'pin must be 4 to 6 digits';
  if (isTrivialPin(pin))
    return 'pin is too easy to guess (a repeated digit, a run such as 1234 or 9876, a repeated pattern or a common PIN)';
  return undefined;
}

export function isTrivialPin(pin: string): boolean {
  const digits = [...pin].map(Number);
  const steps = digits.slice(1).map((d, i) => d - digits[i]);
  if (steps.every((s) => s === 0)) return true;
  if (steps.every((s) => s === 1) || steps.every((s) => s === -1)) return true;
  // a pattern of 1 to 3 digits repeated: 1212, 123123, 909090
  for (let size = 2; size <= pin.length / 2; size += 1) {
    if (pin.length % size === 0 && pin === pin.slice(0, size).repeat(pin.length / size))
      return true;
  }
  return COMMON_PINS.has(pin);
}
