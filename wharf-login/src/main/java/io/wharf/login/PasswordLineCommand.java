package io.wharf.login;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.List;

/**
 * Makes the line of one user for a password file: {@code ./wharf passwd NAME [ROLE...]}, or
 * {@code java -cp ... io.wharf.login.PasswordLineCommand NAME [ROLE...]}. The password is the
 * first line of standard input (the {@code wharf} script asks for it twice on the terminal
 * without echo and passes it on; from a script: {@code printf '%s\n' "$PASSWORD" | ./wharf passwd
 * ann admin}); the line {@code name:$argon2id$...:role1,role2} goes to standard output, ready to
 * append to the file. It reads no terminal itself: whether {@code System.console()} is one when
 * a stream is redirected changed between JDK releases. Runs on the main thread and exits with 2 on
 * a bad argument or an empty password.
 */
public final class PasswordLineCommand {

    private PasswordLineCommand() {
    }

    public static void main(String[] args) throws IOException {
        BufferedReader in = new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8));
        int status = run(args, in, System.out, System.err);
        if (status != 0) {
            System.exit(status);
        }
    }

    /** @return the exit status: 0 when the line was printed, 2 when it could not be made */
    static int run(String[] args, BufferedReader in, PrintStream out, PrintStream err) throws IOException {
        if (args.length == 0 || args[0].equals("-h") || args[0].equals("--help")) {
            err.println("usage: passwd NAME [ROLE...]  (the password is the first line of standard input)");
            return 2;
        }
        String name = args[0];
        List<String> roles = Arrays.asList(args).subList(1, args.length);
        String problem = UserNames.nameProblem(name);
        for (int i = 0; problem == null && i < roles.size(); i++) {
            problem = UserNames.roleProblem(roles.get(i));
        }
        if (problem != null) {
            err.println("passwd: " + problem);
            return 2;
        }
        String password = in.readLine();
        if (password == null || password.isEmpty()) {
            err.println("passwd: no password given");
            return 2;
        }
        out.println(PasswordFile.line(name, PasswordHash.create(password), roles));
        return 0;
    }
}
