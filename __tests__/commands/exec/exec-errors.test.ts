import { EXEC_ERRORS } from '../../../lib/commands/exec';
import { toCommandFailure } from '../../../lib/commands/exec/exec-errors';
import { XmldbError } from '../../../lib/xmldb-error';

import { describeCatalog } from '../../helpers/catalog';

describeCatalog('exec', EXEC_ERRORS, 'commands/exec/exec-errors.ts', ['commands/exec', 'commands/defs'], () => 500);

describe('failures', () => {
  test('toCommandFailure: client errors become 500; 403 and 5xx stay', () => {
    const mapped = toCommandFailure(new XmldbError(404, 'gone', 'X')) as XmldbError;
    expect([mapped.status, mapped.message, mapped.code]).toStrictEqual([500, 'gone', 'X']);
    const refused = new XmldbError(403, 'Admin permission needed.');
    expect(toCommandFailure(refused)).toBe(refused);
    const plain = new Error('bug');
    expect(toCommandFailure(plain)).toBe(plain);
  });
});
