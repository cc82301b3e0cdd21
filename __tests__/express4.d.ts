// The Express 4 package installed under the alias `express4` (for host-app tests) has the same API
// surface we use as Express 5.
declare module 'express4' {
  import express = require('express');
  export = express;
}
