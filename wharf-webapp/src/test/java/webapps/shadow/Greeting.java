package webapps.shadow;

/** On the test class path, the parent's; a test jar holds another class of this name that says "webapp". */
public class Greeting {

    @Override
    public String toString() {
        return "parent";
    }
}
