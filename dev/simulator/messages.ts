// Toggle outcome message texts from contract section 7, with `$hardware_name` filled in.

/** The `message` of a toggle answered with `status`; 200 carries the status code as text. */
export function toggleMessage(status: number, hardwareName: string): string {
  switch (status) {
    case 200:
      return '200';
    case 400:
      return `Error communicating with ${hardwareName}. Malformed Request. (400)`;
    case 401:
      return `Error communicating with ${hardwareName}. Authentication error. (401)`;
    case 404:
      return `Your ${hardwareName} cannot be found. Please unplug it and plug it back in. (404)`;
    case 428:
      return `Your ${hardwareName} requires pairing a door sensor before the request can be processed. (428)`;
    case 501:
      return `Error communicating with ${hardwareName}. Not Implemented error. (501)`;
    default:
      // The contract shows 200's text only; another success (202 Accepted) is said the same way.
      if (status >= 200 && status < 300) {
        return String(status);
      }
      // The contract shows no text for other statuses; keep the same shape so clients see something readable.
      return `Error communicating with ${hardwareName}. (${status})`;
  }
}

export const INVALID_TOKEN_MESSAGE = 'Invalid access token';
