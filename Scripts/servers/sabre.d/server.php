<?php
// sabre/dav 4.7 as a throwaway CalDAV server for calgw's tests, with the plugin set Baïkal
// enables (interface: ../README.md of the servers folder; started by ../sabre).
//
// Two roles, chosen by PHP's SAPI:
//   php -S 127.0.0.1:PORT server.php         the router: every request goes to sabre/dav
//   php server.php setup USER:PASSWORD...    builds the SQLite database (once, by `sabre start`)
//
// Both read two environment variables set by `sabre start`:
//   CALGW_SABRE_LIB     the vendored sabre-dav folder (X/shared/servers/sabre-dav)
//   CALGW_SABRE_STATE   the instance's STATE_DIR (database sabre.sqlite, logs, mail/)
// The library is loaded from there as is, with the small PSR-4 autoloader below (no composer).

declare(strict_types=1);

function calgw_env(string $name): string
{
    $value = getenv($name);
    if ($value === false || $value === '') {
        fwrite(STDERR, "server.php: $name is not set\n");
        exit(1);
    }
    return $value;
}

$lib = calgw_env('CALGW_SABRE_LIB');
$state = calgw_env('CALGW_SABRE_STATE');

// Errors go to the instance's log, never into a response.
ini_set('display_errors', '0');
ini_set('log_errors', '1');
ini_set('error_log', $state.'/php-errors.log');
error_reporting(E_ALL);

// --- Autoloading, from each vendored package's composer.json `autoload` section ----------------

(function (string $lib): void {
    $prefixes = [];   // namespace prefix => list of folders
    foreach (glob($lib.'/vendor/*/composer.json') as $manifest) {
        $package = dirname($manifest);
        $autoload = json_decode((string) file_get_contents($manifest), true)['autoload'] ?? [];
        foreach ($autoload['psr-4'] ?? [] as $prefix => $folders) {
            foreach ((array) $folders as $folder) {
                $prefixes[$prefix][] = $package.'/'.rtrim($folder, '/').'/';
            }
        }
        foreach ($autoload['files'] ?? [] as $file) {
            require_once $package.'/'.$file;
        }
    }
    // Longest prefix first: Sabre\Event\ before Sabre\.
    uksort($prefixes, fn ($a, $b) => strlen($b) <=> strlen($a));
    spl_autoload_register(function (string $class) use ($prefixes): void {
        foreach ($prefixes as $prefix => $folders) {
            if (strncmp($class, $prefix, strlen($prefix)) !== 0) {
                continue;
            }
            $relative = str_replace('\\', '/', substr($class, strlen($prefix))).'.php';
            foreach ($folders as $folder) {
                if (is_file($folder.$relative)) {
                    require $folder.$relative;
                    return;
                }
            }
        }
    });
})($lib);

function calgw_pdo(string $state): PDO
{
    $pdo = new PDO('sqlite:'.$state.'/sabre.sqlite', null, null, [
        PDO::ATTR_ERRMODE => PDO::ERRMODE_EXCEPTION,
        // Busy timeout (seconds): the workers of `php -S` share the database.
        PDO::ATTR_TIMEOUT => 30,
    ]);
    $pdo->exec('PRAGMA synchronous = NORMAL');
    return $pdo;
}

const CALGW_REALM = 'SabreDAV';
const CALGW_MAIL_DOMAIN = 'example.net';

// --- Setup: the database, users, principals and their default calendars -----------------------

if (PHP_SAPI === 'cli') {
    if (($argv[1] ?? '') !== 'setup' || count($argv) < 3) {
        fwrite(STDERR, "usage: php server.php setup USER:PASSWORD...\n");
        exit(2);
    }
    $pdo = calgw_pdo($state);
    $pdo->exec('PRAGMA journal_mode = WAL');
    foreach (['users', 'principals', 'calendars', 'propertystorage', 'locks'] as $schema) {
        $pdo->exec((string) file_get_contents("$lib/sql/sqlite.$schema.sql"));
    }
    // The schemas' sample admin is not wanted. PDOBasicAuth checks a password_hash() hash;
    // digesta1 (md5 of user:realm:password) is kept filled as sabre's and Baïkal's tables have it.
    $pdo->exec("DELETE FROM users WHERE username = 'admin'");
    $pdo->exec("DELETE FROM principals WHERE uri LIKE 'principals/admin%'");
    $pdo->exec('ALTER TABLE users ADD COLUMN password_hash TEXT');

    $addUser = $pdo->prepare('INSERT INTO users (username, digesta1, password_hash) VALUES (?, ?, ?)');
    $addPrincipal = $pdo->prepare('INSERT INTO principals (uri, email, displayname) VALUES (?, ?, ?)');
    $caldav = new Sabre\CalDAV\Backend\PDO($pdo);
    $pdo->beginTransaction();
    foreach (array_slice($argv, 2) as $credentials) {
        [$user, $password] = explode(':', $credentials, 2);
        // bcrypt's lowest cost: each request checks the password, and these are test secrets.
        $addUser->execute([$user, md5("$user:".CALGW_REALM.":$password"),
            password_hash($password, PASSWORD_BCRYPT, ['cost' => 4])]);
        $addPrincipal->execute(["principals/$user", "$user@".CALGW_MAIL_DOMAIN, ucfirst($user)]);
        $addPrincipal->execute(["principals/$user/calendar-proxy-read", null, null]);
        $addPrincipal->execute(["principals/$user/calendar-proxy-write", null, null]);
        $caldav->createCalendar("principals/$user", 'default', [
            '{DAV:}displayname' => 'Default calendar',
        ]);
    }
    $pdo->commit();
    exit(0);
}

// --- Router ---------------------------------------------------------------------------------------

$path = (string) parse_url($_SERVER['REQUEST_URI'] ?? '/', PHP_URL_PATH);

// RFC 6764 discovery: sabre/dav leaves /.well-known/ to the web server.
if (preg_match('{^/\.well-known/caldav/?$}i', $path)) {
    http_response_code(301);
    header('Location: /');
    return true;
}

// PHP's built-in server answers some WebDAV methods (ACL) with 501 before the router runs: a
// client may send them as POST with X-HTTP-Method-Override, as for DAViCal here.
$override = $_SERVER['HTTP_X_HTTP_METHOD_OVERRIDE'] ?? '';
if (($_SERVER['REQUEST_METHOD'] ?? '') === 'POST' && preg_match('/^[A-Z-]+$/', $override)) {
    $_SERVER['REQUEST_METHOD'] = $override;
}

$pdo = calgw_pdo($state);
$principalBackend = new Sabre\DAVACL\PrincipalBackend\PDO($pdo);
$caldavBackend = new Sabre\CalDAV\Backend\PDO($pdo);
$authBackend = new Sabre\DAV\Auth\Backend\PDOBasicAuth($pdo, ['digestColumn' => 'password_hash']);
$authBackend->setRealm(CALGW_REALM);

$server = new Sabre\DAV\Server([
    new Sabre\CalDAV\Principal\Collection($principalBackend),
    new Sabre\CalDAV\CalendarRoot($principalBackend, $caldavBackend),
]);
$server->setBaseUri('/');

$server->addPlugin(new Sabre\DAV\Auth\Plugin($authBackend));
$server->addPlugin(new Sabre\DAVACL\Plugin());
$server->addPlugin(new Sabre\DAV\Browser\Plugin());
$server->addPlugin(new Sabre\DAV\PropertyStorage\Plugin(new Sabre\DAV\PropertyStorage\Backend\PDO($pdo)));
$server->addPlugin(new Sabre\DAV\Sync\Plugin());
$server->addPlugin(new Sabre\CalDAV\Plugin());
$server->addPlugin(new Sabre\CalDAV\ICSExportPlugin());
$server->addPlugin(new Sabre\CalDAV\Schedule\Plugin());
// Mails go through PHP's mail(), i.e. the sendmail_path `sabre start` sets (a file drop).
$server->addPlugin(new Sabre\CalDAV\Schedule\IMipPlugin('calendar@'.CALGW_MAIL_DOMAIN));
$server->addPlugin(new Sabre\DAV\Sharing\Plugin());
$server->addPlugin(new Sabre\CalDAV\SharingPlugin());
$server->addPlugin(new Sabre\CalDAV\Subscriptions\Plugin());

$server->start();
return true;
